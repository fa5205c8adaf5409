import type { HistoryItem } from './historyItem';

/** Everything recorded for one run, in append order. */
export interface HistorySnapshot {
  readonly runId: string;
  readonly items: readonly HistoryItem[];
}

/**
 * Where history lives (in memory here; workspace storage in the VS Code adapter).
 * Append-only by design: there is no way to change or remove what was appended.
 */
export interface HistoryStore {
  load(runId: string): Promise<HistorySnapshot>;
  /** Rejects with HistoryAppendRejected when the item id is already taken. */
  append(item: HistoryItem): Promise<void>;
}

/** An append that would overwrite existing history. */
export class HistoryAppendRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HistoryAppendRejected';
  }
}
