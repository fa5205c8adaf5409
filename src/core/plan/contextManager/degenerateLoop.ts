import type { HistoryItem } from '../history/historyItem';

/** An agent repeating itself: the same action on the same input type, more times in a row than allowed (spec 001). */
export type DegenerateLoop = Pick<HistoryItem, 'agentType' | 'agentId' | 'action' | 'inputType'> & {
  /** Consecutive repetitions by this agent (other agents' items in between do not break the run). */
  readonly repetitionCount: number;
  readonly threshold: number;
  /** The repeated items, oldest first. */
  readonly evidence: readonly HistoryItem[];
};

function trailingRun(items: readonly HistoryItem[]): readonly HistoryItem[] {
  const last = items[items.length - 1];
  if (!last) return [];
  let start = items.length - 1;
  while (start > 0) {
    const previous = items[start - 1];
    if (!previous || previous.action !== last.action || previous.inputType !== last.inputType) break;
    start--;
  }
  return items.slice(start);
}

/**
 * Finds an agent (by agentId) whose latest invocations repeat the same action and input type more than
 * `threshold` times in a row. Only the current run of each agent counts: an agent that looped and then
 * moved on is not stuck. When several agents loop, the longest run wins, then the most recent.
 */
export function detectDegenerateLoop(items: readonly HistoryItem[], threshold: number): DegenerateLoop | undefined {
  const byAgent = new Map<string, HistoryItem[]>();
  for (const item of items) {
    const own = byAgent.get(item.agentId) ?? [];
    own.push(item);
    byAgent.set(item.agentId, own);
  }
  let worst: { readonly run: readonly HistoryItem[]; readonly lastIndex: number } | undefined;
  for (const own of byAgent.values()) {
    const run = trailingRun(own);
    const last = run[run.length - 1];
    if (!last || run.length <= threshold) continue;
    const lastIndex = items.indexOf(last);
    if (!worst || run.length > worst.run.length || (run.length === worst.run.length && lastIndex > worst.lastIndex))
      worst = { run, lastIndex };
  }
  const first = worst?.run[0];
  if (!worst || !first) return undefined;
  return {
    agentType: first.agentType,
    agentId: first.agentId,
    action: first.action,
    inputType: first.inputType,
    repetitionCount: worst.run.length,
    threshold,
    evidence: worst.run,
  };
}
