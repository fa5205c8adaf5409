import { z } from 'zod';
import type { HistoryItem, HistorySnapshot } from '../historyItem';

/** A word search over the history (spec 001 HistorySearchRequest). */
export const HistorySearchRequestSchema = z.object({
  query: z.string().trim().min(1).describe('Words to look for (case-insensitive) in inputs, outputs and errors.'),
  maxResults: z.number().int().min(1).max(50).default(10),
});
export type HistorySearchRequest = z.output<typeof HistorySearchRequestSchema>;

/** Where in an item a query word was found. */
const SEARCH_FIELDS = ['agent', 'input', 'output'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** One matching item and how well it matched. */
export interface HistorySearchHit {
  readonly item: HistoryItem;
  /** How many distinct query words the item contains. */
  readonly termsMatched: number;
  /** Total occurrences of the query words. */
  readonly occurrences: number;
  readonly matchedIn: SearchField[];
}

/** Ranked hits (spec 001 HistorySearchResponse). */
export interface HistorySearchResponse {
  readonly hits: HistorySearchHit[];
}

function countOccurrences(haystack: string, term: string): number {
  let count = 0;
  for (let at = haystack.indexOf(term); at !== -1; at = haystack.indexOf(term, at + term.length)) count++;
  return count;
}

function fieldsOf(item: HistoryItem): Readonly<Record<SearchField, string>> {
  const output =
    item.outcome.status === 'succeeded'
      ? JSON.stringify(item.outcome.output)
      : `${item.outcome.error.kind ?? ''} ${item.outcome.error.message}`;
  return {
    agent: `${item.agentType} ${item.agentId} ${item.action} ${item.inputType}`.toLowerCase(),
    input: JSON.stringify(item.input).toLowerCase(),
    output: output.toLowerCase(),
  };
}

/**
 * Items containing any query word, ranked by distinct words matched, then occurrences, then history order (the sort
 * is stable; simple and predictable beats clever here: the caller is a model reading the result).
 */
export function searchHistory(history: HistorySnapshot, request: HistorySearchRequest): HistorySearchResponse {
  const { query, maxResults } = request;
  const terms = [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
  const hits = history.items.flatMap((item): HistorySearchHit[] => {
    const fields = fieldsOf(item);
    // Occurrences of each term in each field.
    const counts = terms.map(term => SEARCH_FIELDS.map(field => countOccurrences(fields[field], term)));
    const termsMatched = counts.filter(perField => perField.some(count => count > 0)).length;
    if (termsMatched === 0) return [];
    const occurrences = counts.flat().reduce((sum, count) => sum + count, 0);
    const matchedIn = SEARCH_FIELDS.filter((_, index) => counts.some(perField => (perField[index] ?? 0) > 0));
    return [{ item, termsMatched, occurrences, matchedIn }];
  });
  hits.sort((a, b) => b.termsMatched - a.termsMatched || b.occurrences - a.occurrences);
  return { hits: hits.slice(0, maxResults) };
}
