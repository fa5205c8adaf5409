import { z } from 'zod';
import { isObject } from '../../llm/replyNormalizing';
import { PlanningCollectorResultDraft } from '../schemas/collectors';
import { nonBlank } from '../schemas/common';
import {
  DiscoveryLink,
  PlanningAgentResultDraft,
  PlanningTicket,
  TicketDependency,
  TicketTask,
} from '../schemas/planning';
import { consolidationFieldsFor, normalizeConsolidation, type CollectorVocabulary } from './consolidationRequest';
import type { DraftRequest } from './draftRequest';
import type { Note } from './normalizing';
import { distinctItems, existingFile, newWorkspacePath, oneOf } from './requestEnums';
import { breakDependencyCycles, closeTicketGraph, normalizeTickets } from './ticketGraphNormalizing';

/** Most hours one task may be estimated at (a sane bound for a number field). */
const MAX_TASK_HOURS = 10_000;

/** What a ticket may cite: the workspace files, and the one discovery collector result of this run. */
export interface TicketVocabulary {
  readonly files: ReadonlySet<string>;
  readonly discoveryResultId: string;
}

/** A ticket as this request admits it; `closed` says dependencies must name tickets of the same list. */
function ticketFor(vocabulary: TicketVocabulary, closed: boolean) {
  const files = [...vocabulary.files].sort();
  const path = z
    .union([existingFile(files, 'An existing workspace file.'), newWorkspacePath('A file to create.')])
    .describe('A file to change, read or create; workspace-relative.');
  return PlanningTicket.safeExtend({
    ticketId: nonBlank('Unique ticket id, e.g. "T-1"; no two tickets share one.'),
    tasks: z
      .array(
        TicketTask.safeExtend({
          relatedFiles: distinctItems(path, 'Files involved.'),
          estimatedHours: z.number().min(0).max(MAX_TASK_HOURS).optional().describe('Estimated hours, >= 0.'),
        }),
      )
      .min(1)
      .describe('Implementation tasks; at least one, taskIds unique.'),
    dependencies: distinctItems(
      nonBlank('A ticket id.'),
      closed
        ? 'Ids of other tickets of this list that must be done before this one; never its own id, and no cycles.'
        : 'Ids of tickets that must be done before this one; never its own id, and no cycles among these tickets.',
    ),
    discoveryLinks: z
      .array(
        DiscoveryLink.safeExtend({
          discoveryResultId: oneOf(
            [vocabulary.discoveryResultId],
            'Context id of the discovery collector result.',
            'Copy it exactly.',
          ),
        }),
      )
      .describe('Links to the discovery findings behind this ticket.'),
  }).describe('A planned work item.');
}

/** The planning agent draft schema for this request. */
function planningAgentSchema(vocabulary: TicketVocabulary): z.ZodType<PlanningAgentResultDraft> {
  return PlanningAgentResultDraft.safeExtend({
    tickets: z.array(ticketFor(vocabulary, false)).min(1).describe('Proposed tickets; at least one, ticketIds unique.'),
  }).describe('Tickets a planning agent proposes.');
}

/** Planning agent fixes: ticket ids distinct, dependencies once and never on itself, cycles among its tickets broken. */
export function normalizePlanningAgent(reply: unknown, note: Note): unknown {
  if (!isObject(reply)) return reply;
  normalizeTickets(reply, 'tickets', note);
  breakDependencyCycles(reply, 'tickets', undefined, note);
  return reply;
}

/** The planning agent request. */
export function planningAgentRequest(vocabulary: TicketVocabulary): DraftRequest<PlanningAgentResultDraft> {
  return { schema: planningAgentSchema(vocabulary), normalize: normalizePlanningAgent };
}

/** The planning collector draft schema for this request. */
function planningCollectorSchema(
  vocabulary: TicketVocabulary & CollectorVocabulary,
): z.ZodType<PlanningCollectorResultDraft> {
  return PlanningCollectorResultDraft.safeExtend({
    ...consolidationFieldsFor(vocabulary),
    finalizedTickets: z
      .array(ticketFor(vocabulary, true))
      .min(1)
      .describe('The final tickets; at least one, ticketIds unique.'),
    dependencyGraph: z
      .array(
        TicketDependency.safeExtend({
          fromTicketId: nonBlank('A ticketId of finalizedTickets that must be done first.'),
          toTicketId: nonBlank('Another ticketId of finalizedTickets that waits for it.'),
        }),
      )
      .describe("Ordering edges between final tickets; each pair once, and no cycles with the tickets' dependencies."),
  }).describe('The consolidation of all planning agents into final tickets.');
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
  vocabulary: TicketVocabulary & CollectorVocabulary,
): DraftRequest<PlanningCollectorResultDraft> {
  return { schema: planningCollectorSchema(vocabulary), normalize: normalizePlanningCollector(vocabulary) };
}
