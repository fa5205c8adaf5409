import type { Clock, IdSource } from '../../clock';
import { HistoryItemSchema, type HistoryItem } from './historyItem';
import type { HistorySnapshot, HistoryStore } from './historyStore';

/** What the pipeline reports about a finished invocation; the history adds the id, run and duration. */
export type InvocationRecord = Omit<HistoryItem, 'itemId' | 'runId' | 'durationMs' | 'upstreamContextIds'> & {
  readonly upstreamContextIds?: readonly string[];
};

/** The blackboard history of one pipeline run: record invocations, read them back. */
export class BlackboardHistory {
  constructor(
    private readonly store: HistoryStore,
    readonly runId: string,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {}

  /** Appends a finished invocation; throws if it ends before it starts or does not satisfy HistoryItemSchema. */
  async record(invocation: InvocationRecord): Promise<HistoryItem> {
    const durationMs = Date.parse(invocation.endedAt) - Date.parse(invocation.startedAt);
    if (!(durationMs >= 0))
      throw new RangeError(`Invocation ends (${invocation.endedAt}) before it starts (${invocation.startedAt}).`);
    const item = HistoryItemSchema.parse({ ...invocation, itemId: this.ids.next(), runId: this.runId, durationMs });
    await this.store.append(item);
    return item;
  }

  /** Everything recorded so far, in append order. */
  snapshot(): Promise<HistorySnapshot> {
    return this.store.load(this.runId);
  }
}
