import type { Clock, IdSource } from '../../../../../src/core/clock';
import { BlackboardHistory, type InvocationRecord } from '../../../../../src/core/plan/history/blackboardHistory';
import type { HistorySnapshot } from '../../../../../src/core/plan/history/historyStore';
import { InMemoryHistoryStore } from '../../../../support/inMemoryHistoryStore';

/** Ids `id-1`, `id-2`, ... in order. */
export function sequentialIds(prefix = 'id'): IdSource {
  let next = 0;
  return { next: () => `${prefix}-${++next}` };
}

export const fixedClock: Clock = { now: () => '2026-01-10T15:00:00.000Z' };

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
    outcome: { status: 'succeeded', output: { files: ['src/parser.ts'] } },
    startedAt: at(minute),
    endedAt: at(minute, 30),
    ...overrides,
  };
}

/** A history holding `records` in order; items get ids `item-1`, `item-2`, ... */
export async function historyOf(records: readonly InvocationRecord[]) {
  const store = new InMemoryHistoryStore();
  const history = new BlackboardHistory(store, 'run-1', fixedClock, sequentialIds('item'));
  for (const record of records) await history.record(record);
  return { store, history, snapshot: await history.snapshot() };
}

/** Ids of the items, to keep assertions short. */
export const idsOf = (items: readonly { readonly itemId: string }[]) => items.map(item => item.itemId);

export type { HistorySnapshot };
