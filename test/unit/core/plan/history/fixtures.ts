import type { IdSource } from '../../../../../src/core/clock';
import { BlackboardHistory, type InvocationRecord } from '../../../../../src/core/plan/history/blackboardHistory';
import type { HistorySnapshot } from '../../../../../src/core/plan/history/historyItem';
import type { Blackboard } from '../../../../../src/core/workflow/engine/agentTypes';

/** Ids `id-1`, `id-2`, ... in order. */
export function sequentialIds(prefix = 'id'): IdSource {
  let next = 0;
  return { next: () => `${prefix}-${++next}` };
}

/** Minute `m` past 14:00 on the fixture day. */
export const at = (minute: number, second = 0) =>
  `2026-01-10T14:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}.000Z`;

/** A successful invocation starting at minute `minute`, lasting 30 s; override any field. */
export function invocation(minute: number, overrides: Partial<InvocationRecord> = {}): InvocationRecord {
  return {
    agentType: 'discovery-agent',
    agentId: 'discovery-agent-1',
    action: 'discover',
    inputType: 'DiscoveryAgentRequest',
    input: { goal: 'map the parser' },
    upstreamContextIds: [],
    outcome: { status: 'succeeded', output: { files: ['src/parser.ts'] } },
    startedAt: at(minute),
    endedAt: at(minute, 30),
    ...overrides,
  };
}

/** A run state's blackboard, as plain JSON (what the engine saves). */
export function blackboardOf(board: Record<string, unknown> = {}): Blackboard & { readonly board: typeof board } {
  return { board, get: key => board[key], set: (key, value) => void (board[key] = value) };
}

/** A history holding `records` in order on a fresh blackboard; items get ids `item-1`, `item-2`, ... */
export function historyOf(records: readonly InvocationRecord[]) {
  const blackboard = blackboardOf();
  const history = new BlackboardHistory(blackboard, sequentialIds('item'));
  for (const record of records) history.record(record);
  return { blackboard, history, snapshot: history.snapshot() };
}

/** Ids of the items, to keep assertions short. */
export const idsOf = (items: readonly { readonly itemId: string }[]) => items.map(item => item.itemId);

export type { HistorySnapshot };
