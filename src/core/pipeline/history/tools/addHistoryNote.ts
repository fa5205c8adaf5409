import { z } from 'zod';
import type { Clock, IdSource } from '../../../clock';
import { HistoryNoteSchema, type HistoryNote } from '../historyItem';
import type { HistorySnapshot, HistoryStore } from '../historyStore';

/** A note to add (spec 001 AddNoteRequest, by item id instead of index: ids survive paging). */
export const AddNoteRequestSchema = z.object({
  itemIds: z
    .array(z.string().min(1))
    .default([])
    .describe('Items the note is about; empty for a note about the whole run.'),
  content: z.string().trim().min(1).describe('The note.'),
  tags: z.array(z.string().min(1)).default([]).describe('e.g. exclusion, diagnostic, routing.'),
});
export type AddNoteRequest = z.input<typeof AddNoteRequestSchema>;

/** The stored note, or why it was refused (spec 001 AddNoteResponse). */
export const AddNoteResponseSchema = z.discriminatedUnion('added', [
  z.object({ added: z.literal(true), note: HistoryNoteSchema }),
  z.object({ added: z.literal(false), message: z.string() }),
]);
export type AddNoteResponse = z.infer<typeof AddNoteResponseSchema>;

/** What writing a note needs besides the request. */
export interface NoteWriter {
  readonly store: HistoryStore;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly authorAgent: string;
}

/** Appends a note about existing items; a note about an unknown item is refused (it would annotate nothing). */
export async function addHistoryNote(
  history: HistorySnapshot,
  writer: NoteWriter,
  request: AddNoteRequest,
): Promise<AddNoteResponse> {
  const { itemIds, content, tags } = AddNoteRequestSchema.parse(request);
  const known = new Set(history.items.map(item => item.itemId));
  const unknown = itemIds.filter(id => !known.has(id));
  if (unknown.length > 0) return { added: false, message: `Unknown history item ids: ${unknown.join(', ')}.` };
  const note: HistoryNote = HistoryNoteSchema.parse({
    noteId: writer.ids.next(),
    runId: history.runId,
    timestamp: writer.clock.now(),
    content,
    tags,
    authorAgent: writer.authorAgent,
    itemIds,
  });
  await writer.store.appendNote(note);
  return { added: true, note };
}
