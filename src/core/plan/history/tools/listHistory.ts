import { z } from 'zod';
import type { HistoryItem, HistorySnapshot } from '../historyItem';

/** One page of history, optionally within a time window (spec 001 HistoryListingRequest). */
export const HistoryListingRequestSchema = z.object({
  offset: z.number().int().min(0).default(0).describe('Index of the first item to return (0 = oldest).'),
  limit: z.number().int().min(1).max(100).default(20).describe('Page size.'),
  startTime: z.iso.datetime({ offset: true }).optional().describe('Only items started at or after this time.'),
  endTime: z.iso.datetime({ offset: true }).optional().describe('Only items started before this time.'),
});
export type HistoryListingRequest = z.output<typeof HistoryListingRequestSchema>;

/** The page and where the next one starts (spec 001 HistoryListingResponse). */
export interface HistoryListingResponse {
  readonly entries: HistoryItem[];
  /** Items matching the time window, across all pages. */
  readonly total: number;
  readonly hasMore: boolean;
  /** Offset of the next page (equals `total` on the last page). */
  readonly nextOffset: number;
}

/** One page of history in append order, which never changes because history is append-only. */
export function listHistory(history: HistorySnapshot, request: HistoryListingRequest): HistoryListingResponse {
  const { offset, limit, startTime, endTime } = request;
  const from = startTime === undefined ? -Infinity : Date.parse(startTime);
  const to = endTime === undefined ? Infinity : Date.parse(endTime);
  const inWindow = history.items.filter(item => {
    const started = Date.parse(item.startedAt);
    return started >= from && started < to;
  });
  const entries = inWindow.slice(offset, offset + limit);
  return {
    entries,
    total: inWindow.length,
    hasMore: offset + limit < inWindow.length,
    nextOffset: Math.min(offset + entries.length, inWindow.length),
  };
}
