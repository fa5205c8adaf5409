import type * as vscode from 'vscode';
import { HistoryItemSchema, HistoryNoteSchema, type HistoryItem, type HistoryNote } from '../../core/pipeline/history/historyItem';
import { HistoryAppendRejected, type HistorySnapshot, type HistoryStore } from '../../core/pipeline/history/historyStore';

/** Every run's history key starts with this. */
export const HISTORY_KEY_PREFIX = 'council.pipelineHistory/';

interface StoredHistory {
  readonly items: readonly unknown[];
  readonly notes: readonly unknown[];
}

/**
 * A run's blackboard history in workspace storage (one key per run id). Append-only: an id that is taken is refused,
 * nothing is ever changed or removed (whole runs are dropped only by the run store's eviction). Appends are serialised,
 * so parallel agents never lose each other's items.
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
      notes: stored.notes.flatMap(note => {
        const parsed = HistoryNoteSchema.safeParse(note);
        return parsed.success ? [parsed.data] : [];
      }),
    };
  }

  append(item: HistoryItem): Promise<void> {
    return this.enqueue(item.runId, item.itemId, stored => ({ items: [...stored.items, item], notes: stored.notes }));
  }

  appendNote(note: HistoryNote): Promise<void> {
    return this.enqueue(note.runId, note.noteId, stored => ({ items: stored.items, notes: [...stored.notes, note] }));
  }

  private read(runId: string): StoredHistory {
    const value = this.memento.get<Partial<StoredHistory>>(HISTORY_KEY_PREFIX + runId);
    return { items: Array.isArray(value?.items) ? value.items : [], notes: Array.isArray(value?.notes) ? value.notes : [] };
  }

  private enqueue(runId: string, id: string, change: (stored: StoredHistory) => StoredHistory): Promise<void> {
    const write = this.writes.then(async () => {
      const stored = this.read(runId);
      const taken = [...stored.items, ...stored.notes].some(entry => {
        const record = entry as { readonly itemId?: unknown; readonly noteId?: unknown };
        return record.itemId === id || record.noteId === id;
      });
      // Ids are shared by items and notes so a note can never shadow an item.
      if (taken) throw new HistoryAppendRejected(`History entry ${id} already exists; history is append-only.`);
      await this.memento.update(HISTORY_KEY_PREFIX + runId, change(stored));
    });
    this.writes = write.catch(() => undefined);
    return write;
  }
}
