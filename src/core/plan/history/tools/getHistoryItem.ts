import { z } from 'zod';
import type { HistoryItem, HistoryNote, HistorySnapshot } from '../historyItem';

/**
 * Look an item up by its id or by its position in history (0 = oldest), exactly one of the two.
 * Flat rather than a union because model providers require a tool's input schema to be a plain object at the root.
 */
export const HistoryItemRequestSchema = z
  .object({
    itemId: z.string().min(1).optional().describe('The item id.'),
    index: z.number().int().min(0).optional().describe('Position in history, 0 = oldest.'),
  })
  .refine(request => (request.itemId === undefined) !== (request.index === undefined), {
    message: 'Give exactly one of itemId or index.',
  });
export type HistoryItemRequest = z.output<typeof HistoryItemRequestSchema>;

/** The item, or why it was not found (spec 001 HistoryItemResponse). */
export type HistoryItemResponse =
  | {
      readonly found: true;
      readonly index: number;
      readonly item: HistoryItem;
      /** Notes on it (spec 001 HistoryNote), when there are any. */
      readonly notes?: readonly HistoryNote[];
    }
  | { readonly found: false; readonly message: string };

/** One item; an unknown id or index is a normal "not found" answer, not an exception. */
export function getHistoryItem(history: HistorySnapshot, request: HistoryItemRequest): HistoryItemResponse {
  const { itemId, index: at } = request;
  const index = itemId !== undefined ? history.items.findIndex(item => item.itemId === itemId) : (at ?? -1);
  const item = history.items[index];
  if (!item) {
    const asked = itemId !== undefined ? `id ${itemId}` : `index ${String(at)}`;
    const range = history.items.length === 0 ? 'history is empty' : `valid indices are 0-${history.items.length - 1}`;
    return { found: false, message: `No history item with ${asked}; ${range}.` };
  }
  const notes = history.notes?.filter(note => note.itemIds.includes(item.itemId)) ?? [];
  return { found: true, index, item, ...(notes.length > 0 ? { notes } : {}) };
}
