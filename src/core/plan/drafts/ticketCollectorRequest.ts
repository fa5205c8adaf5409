import type { z } from 'zod';
import { TicketCollectorResultDraft } from '../schemas/collectors';
import { consolidationFieldsFor, normalizeConsolidation, type CollectorVocabulary } from './consolidationRequest';
import type { DraftRequest } from './draftRequest';

/** The ticket collector draft schema for this request: its inputs, its agents, the stages it may route back to. */
function ticketCollectorSchema(vocabulary: CollectorVocabulary): z.ZodType<TicketCollectorResultDraft> {
  return TicketCollectorResultDraft.safeExtend(consolidationFieldsFor(vocabulary)).describe(
    'The consolidation of all ticket agents.',
  );
}

/** The ticket collector request. */
export function ticketCollectorRequest(vocabulary: CollectorVocabulary): DraftRequest<TicketCollectorResultDraft> {
  return {
    schema: ticketCollectorSchema(vocabulary),
    normalize: (reply, note) => {
      normalizeConsolidation(reply, vocabulary, note);
      return reply;
    },
  };
}
