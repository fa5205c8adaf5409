import { z } from 'zod';
import { addIssue, nonBlank } from './common';
import { ContextId } from './contextId';
import { DiscoveryCollectorContext, PlanningCollectorContext, TicketCollectorContext } from './curation';
import { AgentAssignment, ContextSelection } from './delegation';
import { DiscoveryReport } from './discovery';
import { PlanningAgentResult, PlanningTicket } from './planning';
import { TicketAgentResult } from './tickets';

const goal = nonBlank('The goal the pipeline is working on.');

function variant<Kind extends string, Shape extends z.ZodRawShape>(kind: Kind, shape: Shape) {
  return z.object({ kind: z.literal(kind), contextId: ContextId.describe('Id of this upstream context.'), ...shape });
}

/** An agent's own assignment must be addressed to its agent type. */
function assignedTo<Kind extends string>(kind: Kind) {
  return (value: { readonly assignment: AgentAssignment }, ctx: z.RefinementCtx): void => {
    if (value.assignment.agentType !== kind) {
      addIssue(
        ctx,
        ['assignment', 'agentType'],
        `a ${kind} context must carry a ${kind} assignment, not ${value.assignment.agentType}`,
      );
    }
  };
}

const assignment = {
  assignment: AgentAssignment,
  contextSelections: z.array(ContextSelection).describe('Context the orchestrator selected for this agent.'),
};

/**
 * What an agent receives from upstream, by the agent type it is for (`kind`): the goal or its
 * assignment plus the curated contexts of the stages before it. (Spec 000's sealed UpstreamContext.)
 */
export const UpstreamContext = z
  .discriminatedUnion('kind', [
    variant('orchestrator', { goal }),
    variant('discovery-orchestrator', { goal }),
    variant('discovery-agent', assignment).superRefine(assignedTo('discovery-agent')),
    variant('discovery-collector', { goal, reports: z.array(DiscoveryReport).min(1) }),
    variant('planning-orchestrator', { goal, discovery: DiscoveryCollectorContext }),
    variant('planning-agent', { ...assignment, discovery: DiscoveryCollectorContext }).superRefine(
      assignedTo('planning-agent'),
    ),
    variant('planning-collector', {
      goal,
      discovery: DiscoveryCollectorContext,
      planningResults: z.array(PlanningAgentResult).min(1),
    }),
    variant('ticket-orchestrator', { goal, discovery: DiscoveryCollectorContext, planning: PlanningCollectorContext }),
    variant('ticket-agent', {
      ...assignment,
      ticket: PlanningTicket,
      discovery: DiscoveryCollectorContext,
      planning: PlanningCollectorContext,
    }).superRefine(assignedTo('ticket-agent')),
    variant('ticket-collector', {
      goal,
      planning: PlanningCollectorContext,
      ticketResults: z.array(TicketAgentResult).min(1),
    }),
    variant('review', { goal, tickets: TicketCollectorContext }),
    variant('merger', { goal, tickets: TicketCollectorContext }),
  ])
  .describe('Context received from upstream agents, by the agent type it is for.');
/** What an agent receives from upstream. */
export type UpstreamContext = z.infer<typeof UpstreamContext>;
