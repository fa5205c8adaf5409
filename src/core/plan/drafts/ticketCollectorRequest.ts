import { ticketCollectorSchema, type TicketCollectorResultDraft } from '../schemas/collectors';
import type { CollectorVocabulary } from '../schemas/consolidation';
import { normalizeConsolidation } from './consolidationRequest';
import type { DraftRequest } from './draftRequest';

/** The ticket collector request: its inputs, its agents, the stages it may route back to. */
export function ticketCollectorRequest(vocabulary: CollectorVocabulary): DraftRequest<TicketCollectorResultDraft> {
  return {
    schema: ticketCollectorSchema(vocabulary),
    normalize: (reply, note) => {
      normalizeConsolidation(reply, vocabulary, note);
      return reply;
    },
  };
}
