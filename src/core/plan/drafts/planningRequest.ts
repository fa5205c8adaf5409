import { isObject } from '../../llm/replyNormalizing';
import { planningCollectorSchema, type PlanningCollectorResultDraft } from '../schemas/collectors';
import type { CollectorVocabulary } from '../schemas/consolidation';
import { planningAgentSchema, type PlanningAgentResultDraft, type TicketVocabulary } from '../schemas/planning';
import { normalizeConsolidation } from './consolidationRequest';
import { sortedFiles, type DraftRequest, type RequestVocabulary } from './draftRequest';
import type { Note } from './normalizing';
import { breakDependencyCycles, closeTicketGraph, normalizeTickets } from './ticketGraphNormalizing';

/** Planning agent fixes: ticket ids distinct, dependencies once and never on itself, cycles among its tickets broken. */
export function normalizePlanningAgent(reply: unknown, note: Note): unknown {
  if (!isObject(reply)) return reply;
  normalizeTickets(reply, 'tickets', note);
  breakDependencyCycles(reply, 'tickets', undefined, note);
  return reply;
}

/** The planning agent request. */
export function planningAgentRequest(
  vocabulary: RequestVocabulary<TicketVocabulary>,
): DraftRequest<PlanningAgentResultDraft> {
  return { schema: planningAgentSchema(sortedFiles(vocabulary)), normalize: normalizePlanningAgent };
}

/** Planning collector fixes: consolidation, tickets, a graph closed over the final tickets, cycles broken. */
function normalizePlanningCollector(vocabulary: CollectorVocabulary): (reply: unknown, note: Note) => unknown {
  return (reply, note) => {
    if (!isObject(reply)) return reply;
    normalizeConsolidation(reply, vocabulary, note);
    normalizeTickets(reply, 'finalizedTickets', note);
    closeTicketGraph(reply, 'finalizedTickets', 'dependencyGraph', note);
    breakDependencyCycles(reply, 'finalizedTickets', 'dependencyGraph', note);
    return reply;
  };
}

/** The planning collector request. */
export function planningCollectorRequest(
  vocabulary: RequestVocabulary<TicketVocabulary> & CollectorVocabulary,
): DraftRequest<PlanningCollectorResultDraft> {
  return {
    schema: planningCollectorSchema(sortedFiles(vocabulary)),
    normalize: normalizePlanningCollector(vocabulary),
  };
}
