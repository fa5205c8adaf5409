import type { PlanningCollectorContext } from '../../schemas/curation';
import type { DelegationTemplate } from '../../schemas/delegation';
import { delegationTemplate } from '../delegationTemplate';
import type { StageEnvironment } from '../stageEnvironment';

/**
 * The ticket orchestrator. Deterministic: one ticket agent per final ticket, in the planning order. Which agent
 * does which ticket is already decided by the plan, so a model call here would add latency and nothing else.
 */
export function delegateTickets(env: StageEnvironment, planning: PlanningCollectorContext): DelegationTemplate {
  const tickets = planning.curation.finalizedTickets;
  return delegationTemplate(env, 'ticket-orchestrator', {
    upstreamContextId: planning.contextId,
    delegationRationale: `One ticket agent per final ticket (${tickets.length}).`,
    assignments: tickets.map((ticket, index) => ({
      agentId: `ticket-${index + 1}`,
      agentType: 'ticket-agent',
      assignedGoal: `Plan the implementation of ${ticket.ticketId}: ${ticket.title}`,
      subdomainFocus: ticket.ticketId,
      contextToPass: { ticketId: ticket.ticketId },
    })),
    contextSelections: [
      {
        selectionId: 'planning-curation',
        sourceContextId: planning.contextId,
        selectedContent:
          'Each agent gets its ticket, the tickets it depends on, and the code-map references for its files.',
        selectionRationale: 'A ticket agent needs its own slice of the plan, not the whole of it.',
      },
    ],
    splitting: 'one-agent-per-ticket',
  });
}
