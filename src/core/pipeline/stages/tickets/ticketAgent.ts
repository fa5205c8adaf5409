import { TicketAgentPrompt } from '../../prompts/ticketAgentPrompt';
import { ticketAgentRequest } from '../../drafts/ticketAgentRequest';
import type { DiscoveryCollectorContext, PlanningCollectorContext } from '../../schemas/curation';
import type { AgentAssignment, DelegationTemplate } from '../../schemas/delegation';
import type { PlanningTicket } from '../../schemas/planning';
import { TicketAgentResult } from '../../schemas/tickets';
import { SCHEMA_VERSION } from '../../schemas/version';
import { exploreThenReport } from '../exploreThenReport';
import type { AgentRun, RerunInput } from '../previousAttempt';
import { runStageAgent } from '../stageAgent';
import type { ChainPosition } from '../stageCollector';
import type { StageEnvironment } from '../stageEnvironment';
import { ticketUpstream } from './ticketUpstream';

/** The curated contexts a ticket agent works from. */
export interface TicketUpstream {
  readonly discovery: DiscoveryCollectorContext;
  readonly planning: PlanningCollectorContext;
}

/** Runs one ticket agent: read what the ticket touches, then propose a plan and changes (never applied here). */
export function runTicketAgent(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  upstream: TicketUpstream,
  ticket: PlanningTicket,
  assignment: AgentAssignment,
  chain: ChainPosition,
  rerun?: RerunInput<TicketAgentResult>,
): Promise<AgentRun<TicketAgentResult>> {
  return runStageAgent(
    env,
    {
      stage: 'tickets',
      agentType: 'ticket-agent',
      action: 'implement-ticket',
      inputType: 'TicketAgentRequest',
      input: attemptNumber => ({
        ticketId: ticket.ticketId,
        attemptNumber,
        planningContextId: upstream.planning.contextId,
      }),
      upstreamContextIds: [delegation.resultId, upstream.discovery.contextId, upstream.planning.contextId],
      collector: { agentId: 'ticket-collector', agentType: 'ticket-collector' },
      payloadName: 'ticket-agent-result',
      schema: TicketAgentResult,
      knownTickets: new Set(upstream.planning.curation.finalizedTickets.map(t => t.ticketId)),
      recordedAs: 'result',
      name: 'ticket_agent_result',
      description: `Your implementation plan and proposed changes for ${ticket.ticketId}.`,
      draftRequest: ticketAgentRequest({ files: env.index.visiblePaths, ticketId: ticket.ticketId }),
      prompt: (parts, meter) =>
        exploreThenReport(
          env,
          TicketAgentPrompt,
          {
            goal: env.goal,
            constraints: env.constraints,
            agentId: assignment.agentId,
            ticket,
            upstream: ticketUpstream(ticket, upstream.discovery, upstream.planning),
            ...parts,
          },
          env.options.ticketExploration,
          meter,
        ),
      complete: (draft, resultId) => ({
        schemaVersion: SCHEMA_VERSION,
        resultId,
        upstreamContextId: delegation.resultId,
        discoveryResultId: upstream.discovery.sourceResultId,
        ...draft,
        // The assignment decides the ticket; a model answering for another one is not trusted on that.
        ticketId: ticket.ticketId,
        upstreamContextChain: [
          env.rootContextId,
          upstream.discovery.contextId,
          upstream.planning.contextId,
          delegation.resultId,
        ],
      }),
    },
    assignment,
    chain,
    rerun,
  );
}
