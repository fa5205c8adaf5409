import type { Clock, IdSource } from '../../clock';
import { HistoryItemSchema, type HistoryItem } from './historyItem';
import type { HistorySnapshot, HistoryStore } from './historyStore';

/** What the pipeline reports about a finished invocation; the history adds the id, run and duration. */
export type InvocationRecord = Omit<HistoryItem, 'itemId' | 'runId' | 'durationMs' | 'upstreamContextIds'> & {
  readonly upstreamContextIds?: readonly string[];
};

/**
 * The blackboard history of one pipeline run: record invocations, read them back. The store is read once per call
 * (the first time it is needed); after that, what is recorded is appended to the store and to the copy kept here, so
 * reading the history after an attempt never re-reads or re-validates what was stored.
 */
export class BlackboardHistory {
  private items: Promise<HistoryItem[]> | undefined;

  constructor(
    private readonly store: HistoryStore,
    readonly runId: string,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {}

  private loaded(): Promise<HistoryItem[]> {
    this.items ??= this.store.load(this.runId).then(snapshot => [...snapshot.items]);
    return this.items;
  }

  /** Appends a finished invocation; throws if it ends before it starts or does not satisfy HistoryItemSchema. */
  async record(invocation: InvocationRecord): Promise<HistoryItem> {
    const durationMs = Date.parse(invocation.endedAt) - Date.parse(invocation.startedAt);
    if (!(durationMs >= 0))
      throw new RangeError(`Invocation ends (${invocation.endedAt}) before it starts (${invocation.startedAt}).`);
    const item = HistoryItemSchema.parse({ ...invocation, itemId: this.ids.next(), runId: this.runId, durationMs });
    const items = await this.loaded();
    await this.store.append(item);
    items.push(structuredClone(item));
    return item;
  }

  /** Everything recorded so far, in append order. */
  async snapshot(): Promise<HistorySnapshot> {
    return { runId: this.runId, items: [...(await this.loaded())] };
  }
}
