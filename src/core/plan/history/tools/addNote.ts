import { z } from 'zod';
import type { HistoryNote, HistorySnapshot } from '../historyItem';

/** Spec 001 AddNoteRequest: items by id (as every history tool names them), the note, its tags. */
export const AddNoteRequestSchema = z.object({
  itemIds: z.array(z.string().min(1)).min(1).describe('Ids of the history items the note is about.'),
  content: z.string().min(1).describe('The note, for whoever reads this history next.'),
  tags: z.array(z.string().min(1)).describe('e.g. "exclusion", "diagnostic", "routing".'),
});
export type AddNoteRequest = z.output<typeof AddNoteRequestSchema>;

/** Spec 001 AddNoteResponse: the note added, or why none was. */
export type AddNoteResponse =
  { readonly added: true; readonly note: HistoryNote } | { readonly added: false; readonly message: string };

/** Adds a note through `add` when every item it names exists; an unknown id is a normal answer naming it. */
export function addNote(
  history: HistorySnapshot,
  request: AddNoteRequest,
  add: (request: AddNoteRequest) => HistoryNote,
): AddNoteResponse {
  const known = new Set(history.items.map(item => item.itemId));
  const unknown = request.itemIds.filter(id => !known.has(id));
  if (unknown.length > 0)
    return { added: false, message: `No history item with id ${unknown.join(', ')}; nothing was added.` };
  return { added: true, note: add(request) };
}
