import { TicketAgentPrompt } from '../../prompts/ticketAgentPrompt';
import { ticketAgentRequest } from '../../drafts/ticketAgentRequest';
import type { DiscoveryCollectorContext, PlanningCollectorContext } from '../../schemas/curation';
import type { AgentAssignment, DelegationTemplate } from '../../schemas/delegation';
import type { PlanningTicket } from '../../schemas/planning';
import { TicketAgentResult } from '../../schemas/tickets';
import { SCHEMA_VERSION } from '../../schemas/version';
import { contributionsFor } from '../agentContributions';
import { exploreThenReport } from '../exploreThenReport';
import { invokeAgent } from '../agentInvocation';
import type { ChainPosition } from '../stageCollector';
import { previousAttemptView, previousContextOf, type AgentRun, type RerunInput } from '../previousAttempt';
import { handOffModelDraft } from '../stageHandoff';
import type { StageEnvironment } from '../stageEnvironment';
import { ticketUpstream } from './ticketUpstream';

/** The curated contexts a ticket agent works from. */
export interface TicketUpstream {
  readonly discovery: DiscoveryCollectorContext;
  readonly planning: PlanningCollectorContext;
}

/** Runs one ticket agent: read what the ticket touches, then propose a plan and changes (never applied here). */
export async function runTicketAgent(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  upstream: TicketUpstream,
  ticket: PlanningTicket,
  assignment: AgentAssignment,
  chain: ChainPosition,
  rerun?: RerunInput<TicketAgentResult>,
): Promise<AgentRun<TicketAgentResult>> {
  const previousContext = rerun === undefined ? undefined : previousContextOf('ticket-agent', rerun);
  const attemptNumber = (rerun?.previous.attempt ?? 0) + 1;
  const knownTickets = new Set(upstream.planning.curation.finalizedTickets.map(t => t.ticketId));
  return invokeAgent(
    env,
    {
      stage: 'tickets',
      agentType: 'ticket-agent',
      agentId: assignment.agentId,
      action: 'implement-ticket',
      inputType: 'TicketAgentRequest',
      input: { ticketId: ticket.ticketId, attemptNumber, planningContextId: upstream.planning.contextId },
      upstreamContextIds: [delegation.resultId, upstream.discovery.contextId, upstream.planning.contextId],
    },
    async (meter, guidance) => {
      const resultId = env.contextIds.issue('ticket-agent');
      const contributions = await contributionsFor(env, 'ticket-agent', resultId, previousContext);
      const props = {
        goal: env.goal,
        constraints: env.constraints,
        agentId: assignment.agentId,
        ticket,
        upstream: ticketUpstream(ticket, upstream.discovery, upstream.planning),
        contributions,
        ...(previousContext === undefined ? {} : { previous: previousAttemptView(previousContext) }),
        ...(guidance === undefined ? {} : { guidance }),
      };
      const { messages, exploration } = await exploreThenReport(env, TicketAgentPrompt, props, env.options.ticketExploration, meter);
      const accepted = await handOffModelDraft(env, {
        source: { agentId: assignment.agentId, agentType: 'ticket-agent' },
        target: { agentId: 'ticket-collector', agentType: 'ticket-collector' },
        payloadName: 'ticket-agent-result',
        schema: TicketAgentResult,
        chain,
        stage: 'tickets',
        knownTickets,
        draft: { ...ticketAgentRequest({ files: env.index.visiblePaths, ticketId: ticket.ticketId }), name: 'ticket_agent_result', description: `Your implementation plan and proposed changes for ${ticket.ticketId}.`, messages, meter },
        complete: draft => {
          return {
            schemaVersion: SCHEMA_VERSION,
            resultId,
            upstreamContextId: delegation.resultId,
            discoveryResultId: upstream.discovery.sourceResultId,
            ...draft,
            // The assignment decides the ticket; a model answering for another one is not trusted on that.
            ticketId: ticket.ticketId,
            upstreamContextChain: [env.rootContextId, upstream.discovery.contextId, upstream.planning.contextId, delegation.resultId],
          };
        },
      });
      env.knownContextIds.add(resultId);
      const run: AgentRun<TicketAgentResult> = {
        agentId: assignment.agentId,
        result: accepted.payload,
        contextId: resultId,
        handoffId: accepted.handoffId,
        attempt: attemptNumber,
        finishedAt: env.clock.now(),
      };
      return { value: run, output: { result: accepted.payload, toolsExecuted: exploration.executed, toolsRefused: exploration.refused }, contextId: resultId };
    },
  );
}
