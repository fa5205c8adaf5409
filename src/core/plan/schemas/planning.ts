import { z } from 'zod';
import { addIssue, nonBlank, requireUnique, workspacePath } from './common';
import { contextIdOf } from './contextId';
import { findDependencyCycle } from './dependencyGraph';
import { agentRecordStamp } from './recordStamp';
import { distinctItems, existingFile, newWorkspacePath, oneOf } from './vocabulary';

/** Most hours one task may be estimated at (a sane bound for a number field). */
const MAX_TASK_HOURS = 10_000;

/** What a ticket may cite in one request: the workspace files, and the one discovery collector result of this run. */
export interface TicketVocabulary {
  readonly files: ReadonlySet<string>;
  readonly discoveryResultId: string;
}

/** The discovery collector result a plan builds on; every planning record names it. */
export const planDiscoveryResultId = contextIdOf('discovery-collector').describe(
  'Discovery collector result the plan builds on.',
);

/** A unit of planned work; `closed` says its dependencies name tickets of the same list. */
export function planningTicket(vocabulary: TicketVocabulary | undefined, closed: boolean) {
  const files = vocabulary?.files;
  const path =
    files === undefined
      ? workspacePath('A file to change, read or create.')
      : z
          .union([existingFile(files, 'An existing file.'), newWorkspacePath('A file to create.')])
          .describe('A file to change, read or create.');
  const task = z.object({
    taskId: nonBlank('Unique in the ticket.'),
    description: nonBlank('What to do.'),
    estimatedHours: z.number().min(0).max(MAX_TASK_HOURS).optional(),
    relatedFiles: distinctItems(path),
  });
  const linkedResultId = 'Context id of the discovery collector result.';
  const discoveryLink = z.object({
    // This run's discovery collector result, or (published record) any discovery collector's.
    discoveryResultId:
      vocabulary === undefined
        ? contextIdOf('discovery-collector').describe(linkedResultId)
        : // One value in a request, and a long one: Council fills it in rather than asking for a copy.
          oneOf([vocabulary.discoveryResultId], undefined, 'Copy it exactly.').meta({
            notAsked: "Council fills in this run's discovery result.",
          }),
    referenceId: nonBlank('A discovery finding (e.g. a referenceId or recommendationId).'),
    linkRationale: nonBlank('Why the ticket relates to it.'),
  });
  return z
    .object({
      ticketId: nonBlank('Unique, e.g. "T-1".'),
      title: nonBlank(),
      description: nonBlank(),
      tasks: z.array(task).min(1),
      dependencies: distinctItems(
        nonBlank(),
        closed
          ? 'Ids of other tickets of this list that must be done before this one; never its own id, and no cycles.'
          : 'Ids of tickets that must be done before this one; never its own id, and no cycles among these tickets.',
      ),
      acceptanceCriteria: z.array(nonBlank()).min(1).describe('Verifiable criteria.'),
      effortEstimate: nonBlank('e.g. "2h" or "S".').optional(),
      discoveryLinks: z.array(discoveryLink).describe('The discovery findings behind this ticket.'),
      priority: z.number().int().min(1).max(5).describe('1 (highest) to 5 (lowest).'),
    })
    .superRefine((value, ctx) => {
      requireUnique(ctx, value.tasks, task => task.taskId, ['tasks'], 'taskId');
      requireUnique(ctx, value.dependencies, id => id, ['dependencies'], 'ticket id');
      value.dependencies.forEach((id, index) => {
        if (id === value.ticketId) addIssue(ctx, ['dependencies', index], 'a ticket cannot depend on itself');
      });
    });
}
/** A unit of planned work. */
export type PlanningTicket = z.infer<ReturnType<typeof planningTicket>>;

/** An ordering edge between tickets. */
export const TicketDependency = z.object({
  fromTicketId: nonBlank('A ticketId of finalizedTickets, done first.'),
  toTicketId: nonBlank('Another one, that waits for it.'),
  dependencyType: nonBlank('e.g. "blocks" or "needs-api".'),
});
export type TicketDependency = z.infer<typeof TicketDependency>;

/** Tickets are unique and their dependencies among themselves acyclic (others may come from other agents). */
function checkTickets(value: { readonly tickets: readonly PlanningTicket[] }, ctx: z.RefinementCtx): void {
  requireUnique(ctx, value.tickets, ticket => ticket.ticketId, ['tickets'], 'ticketId');
  const cycle = findDependencyCycle(value.tickets, []);
  if (cycle !== undefined) addIssue(ctx, ['tickets'], `ticket dependencies form a cycle: ${cycle.join(' -> ')}`);
}

/** What a planning agent model fills in, for one request's vocabulary (none: the published record's draft). */
export function planningAgentSchema(vocabulary?: TicketVocabulary) {
  return z
    .object({
      tickets: z.array(planningTicket(vocabulary, false)).min(1).describe('ticketIds unique.'),
    })
    .superRefine(checkTickets)
    .describe('Tickets a planning agent proposes.');
}

/** A planning agent's structured output: the draft with the pipeline's stamp. */
export const PlanningAgentResult = planningAgentSchema()
  .safeExtend({ ...agentRecordStamp('planning-agent'), discoveryResultId: planDiscoveryResultId })
  .describe('A planning agent output.')
  .meta({ id: 'PlanningAgentResult' });
export type PlanningAgentResult = z.infer<typeof PlanningAgentResult>;
