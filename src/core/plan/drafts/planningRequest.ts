import { objectsAt, type JsonObject } from '../../llm/replyNormalizing';
import { planningCollectorSchema } from '../schemas/collectors';
import type { CollectorVocabulary } from '../schemas/consolidation';
import { planningAgentSchema, type TicketVocabulary } from '../schemas/planning';
import { normalizeConsolidation } from './consolidationRequest';
import { draftRequest } from './draftRequest';
import { breakDependencyCycles, closeTicketGraph, normalizeTickets } from './ticketGraphNormalizing';

/** Requests built for the stage's files, by discovery result: a stage's agents share one vocabulary. */
const built = new WeakMap<ReadonlySet<string>, Map<string, ReturnType<typeof buildAgentRequest>>>();

/** The planning agent request; its fixes: ticket ids distinct, dependencies once and never on itself, cycles among its tickets broken. */
export function planningAgentRequest(vocabulary: TicketVocabulary) {
  const byResult = built.get(vocabulary.files) ?? new Map<string, ReturnType<typeof buildAgentRequest>>();
  built.set(vocabulary.files, byResult);
  const known = byResult.get(vocabulary.discoveryResultId);
  if (known) return known;
  const request = buildAgentRequest(vocabulary);
  byResult.set(vocabulary.discoveryResultId, request);
  return request;
}

function buildAgentRequest(vocabulary: TicketVocabulary) {
  return draftRequest(planningAgentSchema(vocabulary), (reply, note) => {
    linkDiscoveryResult(reply, 'tickets', vocabulary.discoveryResultId);
    normalizeTickets(reply, 'tickets', note);
    breakDependencyCycles(reply, 'tickets', undefined, note);
  });
}

/** The planning collector request; its fixes: consolidation, tickets, a graph closed over the final tickets, cycles broken. */
export function planningCollectorRequest(vocabulary: TicketVocabulary & CollectorVocabulary) {
  return draftRequest(planningCollectorSchema(vocabulary), (reply, note) => {
    normalizeConsolidation(reply, vocabulary, note);
    linkDiscoveryResult(reply, 'finalizedTickets', vocabulary.discoveryResultId);
    normalizeTickets(reply, 'finalizedTickets', note);
    closeTicketGraph(reply, 'finalizedTickets', 'dependencyGraph', note);
    breakDependencyCycles(reply, 'finalizedTickets', 'dependencyGraph', note);
  });
}

/** Each discovery link of the `field` tickets names `discoveryResultId` (the request's only one: not asked for). */
function linkDiscoveryResult(reply: JsonObject, field: string, discoveryResultId: string): void {
  for (const ticket of objectsAt(reply, field))
    for (const link of objectsAt(ticket, 'discoveryLinks')) link['discoveryResultId'] ??= discoveryResultId;
}
