import type { IdSource } from '../../clock';
import type { Blackboard } from '../../workflow/engine/agentTypes';
import type { HistoryItem, HistoryNote, HistorySnapshot } from './historyItem';

/** The blackboard key a run's history is kept under, in the run state (saved with the run, so it survives Stop). */
export const HISTORY_KEY = 'history';

/** The blackboard key a run's history notes are kept under (spec 001 HistoryNote), beside its history. */
export const HISTORY_NOTES_KEY = 'history-notes';

/** What the pipeline reports about a finished invocation; the history adds the id and duration. */
export type InvocationRecord = Omit<HistoryItem, 'itemId' | 'durationMs'>;

/**
 * The blackboard history of one run (spec 001): invocations appended to the run state's blackboard as they finish,
 * read back by loop detection and the history tools. Append-only: nothing recorded is changed or removed; notes
 * (spec 001 HistoryNote) are added beside the items. What is
 * recorded is Council's own data, so it is not validated again; a stored run's history is, once, when it is read.
 */
export class BlackboardHistory {
  private readonly items: HistoryItem[];

  constructor(
    private readonly blackboard: Blackboard,
    private readonly ids: IdSource,
  ) {
    const kept = blackboard.get(HISTORY_KEY) as HistoryItem[] | undefined;
    this.items = kept ?? [];
    // On the board at once, so a stage started alongside this one appends to the same history.
    if (!kept) blackboard.set(HISTORY_KEY, this.items);
  }

  /** Appends a finished invocation (a clock set back mid-attempt counts as no time). */
  record(invocation: InvocationRecord): HistoryItem {
    const durationMs = Math.max(0, Date.parse(invocation.endedAt) - Date.parse(invocation.startedAt));
    const item: HistoryItem = { itemId: this.ids.next(), ...invocation, durationMs };
    this.items.push(item);
    this.blackboard.set(HISTORY_KEY, this.items);
    return item;
  }

  /** Adds a note on recorded items (the items themselves never change); its id and time are the history's. */
  addNote(note: Omit<HistoryNote, 'noteId' | 'timestamp'>, timestamp: string): HistoryNote {
    const added: HistoryNote = { noteId: this.ids.next(), timestamp, ...note };
    const notes = [...((this.blackboard.get(HISTORY_NOTES_KEY) as HistoryNote[] | undefined) ?? []), added];
    this.blackboard.set(HISTORY_NOTES_KEY, notes);
    return added;
  }

  /** Everything recorded so far, in append order, with the notes on it. */
  snapshot(): HistorySnapshot {
    const notes = this.blackboard.get(HISTORY_NOTES_KEY) as HistoryNote[] | undefined;
    return { items: [...this.items], ...(notes ? { notes: [...notes] } : {}) };
  }
}
