import type { PlanningCollectorContext } from '../../schemas/curation';
import type { PlanningCollectorResultDraft } from '../../schemas/collectors';
import { consolidationSummaryOf, type CurationIds } from '../curatedContext';

/**
 * The curated planning context ticket agents see: the final tickets and their dependency graph plus the
 * consolidation summary. The planning agents' own proposals are left out: the collector already merged them.
 */
export function curatePlanning(
  draft: PlanningCollectorResultDraft,
  ids: CurationIds & { readonly discoveryResultId: string },
): PlanningCollectorContext {
  return {
    contextId: ids.contextId,
    sourceResultId: ids.sourceResultId,
    selectionRationale:
      "Final tickets and dependency graph; the planning agents' proposals are merged into them and omitted.",
    curation: {
      planningAgentResults: [],
      finalizedTickets: draft.finalizedTickets,
      dependencyGraph: draft.dependencyGraph,
      discoveryResultId: ids.discoveryResultId,
      consolidationSummary: consolidationSummaryOf(draft, ids.upstreamContextChain),
    },
  };
}
