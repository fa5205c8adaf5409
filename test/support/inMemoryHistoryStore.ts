import type { HistoryItem } from '../../src/core/plan/history/historyItem';
import {
  HistoryAppendRejected,
  type HistorySnapshot,
  type HistoryStore,
} from '../../src/core/plan/history/historyStore';

interface RunLog {
  readonly items: HistoryItem[];
  readonly ids: Set<string>;
}

function frozenCopy<T>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || Object.isFrozen(node)) return;
    Object.freeze(node);
    for (const child of Object.values(node)) freeze(child);
  };
  freeze(copy);
  return copy;
}

/** A HistoryStore in memory: for tests and for runs that need no persistence. Stores and hands out frozen copies. */
export class InMemoryHistoryStore implements HistoryStore {
  private readonly runs = new Map<string, RunLog>();

  private log(runId: string): RunLog {
    let log = this.runs.get(runId);
    if (!log) {
      log = { items: [], ids: new Set() };
      this.runs.set(runId, log);
    }
    return log;
  }

  async load(runId: string): Promise<HistorySnapshot> {
    const log = this.log(runId);
    return { runId, items: [...log.items] };
  }

  async append(item: HistoryItem): Promise<void> {
    const log = this.log(item.runId);
    if (log.ids.has(item.itemId))
      throw new HistoryAppendRejected(`History item ${item.itemId} already exists; history is append-only.`);
    log.ids.add(item.itemId);
    log.items.push(frozenCopy(item));
  }
}
