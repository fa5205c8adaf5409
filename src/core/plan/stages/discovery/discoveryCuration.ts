import type { DiscoveryCollectorContext } from '../../schemas/curation';
import type { DiscoveryCollectorResultDraft } from '../../schemas/collectors';
import type { FileReference } from '../../schemas/discovery';
import { consolidationSummaryOf, type CurationIds } from '../curatedContext';

/** How much of a collector's result goes downstream: the most relevant references with short snippets. */
const limits = {
  maxReferences: 20,
  maxSnippetChars: 300,
  maxQueryFindings: 8,
  maxResultsPerQuery: 3,
} as const;

function clipReference(ref: FileReference, maxChars: number): FileReference {
  return ref.snippet.length <= maxChars ? ref : { ...ref, snippet: `${ref.snippet.slice(0, maxChars - 1)}…` };
}

/**
 * The curated discovery context planning and ticket agents see: the code map with its most relevant references
 * (short snippets), every recommendation, the most confident query findings, and the consolidation summary.
 * The agents' full reports are left out: the collector already merged them, and they are the bulk of the tokens.
 */
export function curateDiscovery(draft: DiscoveryCollectorResultDraft, ids: CurationIds): DiscoveryCollectorContext {
  const references = [...draft.unifiedCodeMap.deduplicatedReferences]
    .sort((a, b) => b.relevanceScore - a.relevanceScore)
    .slice(0, limits.maxReferences);
  return {
    contextId: ids.contextId,
    sourceResultId: ids.sourceResultId,
    selectionRationale: `Code map with the ${references.length} most relevant references (snippets clipped to ${limits.maxSnippetChars} chars), all recommendations and the most confident query findings; full reports omitted.`,
    curation: {
      discoveryReports: [],
      unifiedCodeMap: {
        ...draft.unifiedCodeMap,
        deduplicatedReferences: references.map(ref => clipReference(ref, limits.maxSnippetChars)),
      },
      recommendations: draft.recommendations,
      queryFindings: [...draft.queryFindings]
        .sort((a, b) => b.confidenceScore - a.confidenceScore)
        .slice(0, limits.maxQueryFindings)
        .map(findings => ({
          ...findings,
          results: findings.results
            .slice(0, limits.maxResultsPerQuery)
            .map(ref => clipReference(ref, limits.maxSnippetChars)),
        })),
      consolidationSummary: consolidationSummaryOf(draft, ids.upstreamContextChain),
    },
  };
}
