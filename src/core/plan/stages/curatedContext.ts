import type { ConsolidationSummary } from '../schemas/consolidation';

/** The ids a curated context is filed under, and the chain it came down. */
export interface CurationIds {
  readonly contextId: string;
  /** The collector result the curation is taken from. */
  readonly sourceResultId: string;
  /** Root, the stages before, the delegation and the agents' results. */
  readonly upstreamContextChain: readonly string[];
}

/** The consolidation fields every curated context carries, from a collector's draft. */
export function consolidationSummaryOf(
  draft: Omit<ConsolidationSummary, 'upstreamContextChain' | 'metadata'>,
  upstreamContextChain: readonly string[],
): ConsolidationSummary {
  const { inputs, mergeStrategy, conflictResolutions, aggregatedMetrics, consolidatedOutput, decision } = draft;
  return {
    inputs,
    mergeStrategy,
    conflictResolutions,
    aggregatedMetrics,
    consolidatedOutput,
    decision,
    upstreamContextChain: [...upstreamContextChain],
    metadata: {},
  };
}
