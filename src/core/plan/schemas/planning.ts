import { z } from 'zod';
import { addIssue, nonBlank, requireUnique, workspacePath, draftSchema } from './common';
import { contextIdOf } from './contextId';
import { findDependencyCycle } from './dependencyGraph';
import { agentRecordStamp } from './recordStamp';

/** One implementation task of a ticket. */
export const TicketTask = z
  .object({
    taskId: nonBlank('Id of the task, unique within the ticket.'),
    description: nonBlank('What to do.'),
    estimatedHours: z.number().min(0).optional().describe('Estimated hours, >= 0.'),
    relatedFiles: z.array(workspacePath('A file to change or read.')).describe('Files involved.'),
  })
  .describe('An implementation task.');
/** One implementation task of a ticket. */
export type TicketTask = z.infer<typeof TicketTask>;

/** A link from a ticket back to the discovery finding that motivates it. */
export const DiscoveryLink = z
  .object({
    discoveryResultId: contextIdOf('discovery-collector').describe('Context id of the discovery collector result.'),
    referenceId: nonBlank('Id of the finding in that result (e.g. a referenceId or recommendationId).'),
    linkRationale: nonBlank('Why the ticket relates to it.'),
  })
  .describe('A link to a discovery finding.');
/** A link from a ticket back to a discovery finding. */
export type DiscoveryLink = z.infer<typeof DiscoveryLink>;

/** A unit of planned work. */
export const PlanningTicket = z
  .object({
    ticketId: nonBlank('Unique ticket id, e.g. "T-1".'),
    title: nonBlank('Ticket title.'),
    description: nonBlank('Full description.'),
    tasks: z.array(TicketTask).min(1).describe('Implementation tasks; at least one, taskIds unique.'),
    dependencies: z.array(nonBlank('A ticket id.')).describe('Ids of tickets that must be done before this one.'),
    acceptanceCriteria: z
      .array(nonBlank('A verifiable criterion.'))
      .min(1)
      .describe('At least one acceptance criterion.'),
    effortEstimate: nonBlank('Estimated effort, e.g. "2h" or "S".').optional(),
    discoveryLinks: z.array(DiscoveryLink).describe('Links to the discovery findings behind this ticket.'),
    priority: z.number().int().min(1).max(5).describe('Priority from 1 (highest) to 5 (lowest).'),
  })
  .superRefine((value, ctx) => {
    requireUnique(ctx, value.tasks, task => task.taskId, ['tasks'], 'taskId');
    requireUnique(ctx, value.dependencies, id => id, ['dependencies'], 'ticket id');
    value.dependencies.forEach((id, index) => {
      if (id === value.ticketId) addIssue(ctx, ['dependencies', index], 'a ticket cannot depend on itself');
    });
  })
  .describe('A planned work item.');
/** A unit of planned work. */
export type PlanningTicket = z.infer<typeof PlanningTicket>;

/** An ordering edge between tickets. */
export const TicketDependency = z
  .object({
    fromTicketId: nonBlank('Ticket that must be done first.'),
    toTicketId: nonBlank('Ticket that waits for it.'),
    dependencyType: nonBlank('Kind of dependency, e.g. "blocks" or "needs-api".'),
  })
  .describe('Ticket ordering edge: from before to.');
/** An ordering edge between tickets. */
export type TicketDependency = z.infer<typeof TicketDependency>;

/** The discovery collector result a plan builds on; every planning record names it. */
export const planDiscoveryResultId = contextIdOf('discovery-collector').describe(
  'Discovery collector result the plan builds on.',
);

const draftShape = {
  tickets: z.array(PlanningTicket).min(1).describe('Proposed tickets; at least one, ticketIds unique.'),
};

/** Tickets are unique and their dependencies among themselves acyclic (others may come from other agents). */
function checkTickets(value: { readonly tickets: readonly PlanningTicket[] }, ctx: z.RefinementCtx): void {
  requireUnique(ctx, value.tickets, ticket => ticket.ticketId, ['tickets'], 'ticketId');
  const cycle = findDependencyCycle(value.tickets, []);
  if (cycle !== undefined) addIssue(ctx, ['tickets'], `ticket dependencies form a cycle: ${cycle.join(' -> ')}`);
}

/** What a planning agent model fills in. */
export const PlanningAgentResultDraft = draftSchema(draftShape, checkTickets, 'Tickets a planning agent proposes.');
/** What a planning agent model fills in. */
export type PlanningAgentResultDraft = z.infer<typeof PlanningAgentResultDraft>;

/** A planning agent's structured output. */
export const PlanningAgentResult = z
  .object({
    ...agentRecordStamp('planning-agent'),
    discoveryResultId: planDiscoveryResultId,
    ...draftShape,
  })
  .superRefine(checkTickets)
  .describe('A planning agent output.')
  .meta({ id: 'PlanningAgentResult' });
/** A planning agent's structured output. */
export type PlanningAgentResult = z.infer<typeof PlanningAgentResult>;
