import type { TicketCollectorResultDraft } from '../../schemas/collectors';
import type { TicketCollectorContext } from '../../schemas/curation';
import type { TicketAgentResult } from '../../schemas/tickets';
import { consolidationSummaryOf, type CurationIds } from '../curatedContext';

/**
 * The curated ticket context the run (and so the user) gets. Ticket proposals are the run's deliverables, so the
 * curation keeps them whole, with the completion status, the follow-ups and the consolidation summary.
 */
export function curateTickets(
  draft: TicketCollectorResultDraft,
  ids: CurationIds,
  proposals: readonly TicketAgentResult[],
): TicketCollectorContext {
  return {
    contextId: ids.contextId,
    sourceResultId: ids.sourceResultId,
    selectionRationale: 'Every ticket proposal (the deliverables), completion status and follow-ups.',
    curation: {
      ticketAgentResults: [...proposals],
      completionStatus: draft.completionStatus,
      followUps: draft.followUps,
      consolidationSummary: consolidationSummaryOf(draft, ids.upstreamContextChain),
    },
  };
}
