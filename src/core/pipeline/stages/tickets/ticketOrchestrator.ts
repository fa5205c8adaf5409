import type { PlanningCollectorContext } from '../../schemas/curation';
import { DelegationTemplate } from '../../schemas/delegation';
import { SCHEMA_VERSION } from '../../schemas/version';
import type { StageEnvironment } from '../stageEnvironment';

/**
 * The ticket orchestrator. Deterministic: one ticket agent per final ticket, in the planning order. Which agent
 * does which ticket is already decided by the plan, so a model call here would add latency and nothing else.
 */
export function delegateTickets(env: StageEnvironment, planning: PlanningCollectorContext): DelegationTemplate {
  const tickets = planning.curation.finalizedTickets;
  const resultId = env.contextIds.issue('ticket-orchestrator');
  env.knownContextIds.add(resultId);
  return DelegationTemplate.parse({
    schemaVersion: SCHEMA_VERSION,
    resultId,
    upstreamContextId: planning.contextId,
    goal: env.goal,
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
        selectedContent: 'Each agent gets its ticket, the tickets it depends on, and the code-map references for its files.',
        selectionRationale: 'A ticket agent needs its own slice of the plan, not the whole of it.',
      },
    ],
    metadata: { splitting: 'one-agent-per-ticket' },
  });
}
