import type { IdSource } from '../../clock';
import type { Blackboard } from '../../workflow/engine/agentTypes';
import type { HistoryItem, HistorySnapshot } from './historyItem';

/** The blackboard key a run's history is kept under, in the run state (saved with the run, so it survives Stop). */
export const HISTORY_KEY = 'history';

/** What the pipeline reports about a finished invocation; the history adds the id, run and duration. */
export type InvocationRecord = Omit<HistoryItem, 'itemId' | 'runId' | 'durationMs'>;

/**
 * The blackboard history of one run (spec 001): invocations appended to the run state's blackboard as they finish,
 * read back by loop detection and the history tools. Append-only: nothing recorded is changed or removed. What is
 * recorded is Council's own data, so it is not validated again; a stored run's history is, once, when it is read.
 */
export class BlackboardHistory {
  private readonly items: HistoryItem[];

  constructor(
    private readonly blackboard: Blackboard,
    readonly runId: string,
    private readonly ids: IdSource,
  ) {
    const kept = blackboard.get(HISTORY_KEY) as HistoryItem[] | undefined;
    this.items = kept ?? [];
    // On the board at once, so a stage started alongside this one appends to the same history.
    if (!kept) blackboard.set(HISTORY_KEY, this.items);
  }

  /** Appends a finished invocation; throws if it ends before it starts. */
  record(invocation: InvocationRecord): HistoryItem {
    const durationMs = Date.parse(invocation.endedAt) - Date.parse(invocation.startedAt);
    if (!(durationMs >= 0))
      throw new RangeError(`Invocation ends (${invocation.endedAt}) before it starts (${invocation.startedAt}).`);
    const item: HistoryItem = { itemId: this.ids.next(), runId: this.runId, ...invocation, durationMs };
    this.items.push(item);
    this.blackboard.set(HISTORY_KEY, this.items);
    return item;
  }

  /** Everything recorded so far, in append order. */
  snapshot(): HistorySnapshot {
    return { runId: this.runId, items: [...this.items] };
  }
}
