import { z } from 'zod';
import type { HistoryItem, HistorySnapshot } from '../historyItem';

/** A word search over the history (spec 001 HistorySearchRequest). */
export const HistorySearchRequestSchema = z.object({
  query: z.string().trim().min(1).describe('Words to look for (case-insensitive) in inputs, outputs and errors.'),
  maxResults: z.number().int().min(1).max(50).default(10),
});
export type HistorySearchRequest = z.input<typeof HistorySearchRequestSchema>;

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
 * Items containing any query word, ranked by distinct words matched, then occurrences, then history order
 * (simple and predictable beats clever here: the caller is a model reading the result).
 */
export function searchHistory(history: HistorySnapshot, request: HistorySearchRequest): HistorySearchResponse {
  const { query, maxResults } = HistorySearchRequestSchema.parse(request);
  const terms = [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
  const scored = history.items.flatMap((item, index) => {
    const fields = fieldsOf(item);
    const matchedIn = new Set<SearchField>();
    let termsMatched = 0;
    let occurrences = 0;
    for (const term of terms) {
      let found = 0;
      for (const field of SEARCH_FIELDS) {
        const count = countOccurrences(fields[field], term);
        if (count > 0) matchedIn.add(field);
        found += count;
      }
      if (found > 0) termsMatched++;
      occurrences += found;
    }
    return termsMatched === 0
      ? []
      : [
          {
            index,
            hit: {
              item,
              termsMatched,
              occurrences,
              matchedIn: SEARCH_FIELDS.filter(f => matchedIn.has(f)),
            },
          },
        ];
  });
  scored.sort(
    (a, b) => b.hit.termsMatched - a.hit.termsMatched || b.hit.occurrences - a.hit.occurrences || a.index - b.index,
  );
  return { hits: scored.slice(0, maxResults).map(entry => entry.hit) };
}
