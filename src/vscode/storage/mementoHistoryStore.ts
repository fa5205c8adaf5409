import type * as vscode from 'vscode';
import { HistoryItemSchema, type HistoryItem } from '../../core/plan/history/historyItem';
import { HistoryAppendRejected, type HistorySnapshot, type HistoryStore } from '../../core/plan/history/historyStore';
import { readStoredHistory, STORED_HISTORY_VERSION, type StoredHistory } from '../../core/plan/history/storedHistory';

/** Every run's history key starts with this. */
export const HISTORY_KEY_PREFIX = 'council.pipelineHistory/';

/**
 * A run's blackboard history in workspace storage (one key per run id). Append-only: an id that is taken is refused,
 * nothing is ever changed or removed (whole runs are dropped only by the run store's eviction). Appends are serialised,
 * so parallel agents never lose each other's items. A history saved by a newer Council is neither read nor
 * written: both reject with NewerVersionError.
 */
export class MementoHistoryStore implements HistoryStore {
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly memento: Pick<vscode.Memento, 'get' | 'update'>) {}

  async load(runId: string): Promise<HistorySnapshot> {
    await this.writes;
    const stored = this.read(runId);
    return {
      runId,
      items: stored.items.flatMap(item => {
        const parsed = HistoryItemSchema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      }),
    };
  }

  append(item: HistoryItem): Promise<void> {
    return this.enqueue(item.runId, item.itemId, stored => ({
      version: STORED_HISTORY_VERSION,
      items: [...stored.items, item],
    }));
  }

  /** The stored record; missing or damaged history reads as empty (the run goes on), a newer one throws. */
  private read(runId: string): StoredHistory {
    const read = readStoredHistory(this.memento.get<unknown>(HISTORY_KEY_PREFIX + runId) ?? {});
    if (read.kind === 'newer') throw read.error;
    return read.kind === 'current' ? read.value : { version: STORED_HISTORY_VERSION, items: [] };
  }

  private enqueue(runId: string, id: string, change: (stored: StoredHistory) => StoredHistory): Promise<void> {
    const write = this.writes.then(async () => {
      const stored = this.read(runId);
      const taken = stored.items.some(entry => (entry as { readonly itemId?: unknown }).itemId === id);
      if (taken) throw new HistoryAppendRejected(`History entry ${id} already exists; history is append-only.`);
      await this.memento.update(HISTORY_KEY_PREFIX + runId, change(stored));
    });
    this.writes = write.catch(() => undefined);
    return write;
  }
}
