import { ticketAgentRequest } from '../../drafts/ticketAgentRequest';
import { TICKET_EXPLORATION } from '../pipelineOptions';
import { ticketCollectorRequest } from '../../drafts/consolidationRequest';
import { TicketAgentPrompt } from '../../prompts/ticketAgentPrompt';
import { ticketCollectorBrief } from '../../prompts/ticketCollectorBrief';
import type { TicketCollectorResult } from '../../schemas/collectors';
import { ActionableError } from '../../../actionableError';
import type { PipelineBoard } from '../../pipelineBoard';
import type { AgentAssignment } from '../../schemas/delegation';
import { TicketCollectorContext } from '../../schemas/curation';
import { TicketAgentResult } from '../../schemas/tickets';
import { renderMessages } from '../../../llm/prompting/render';
import { citableFiles } from '../../schemas/vocabulary';
import { auditTicketResult } from '../handoffAudit';
import { runStage } from '../stageDescriptor';
import type { StageEnvironment } from '../stageEnvironment';
import type { TicketStageRecord } from '../stageRecords';
import { curateTickets } from './ticketCuration';
import { delegateTickets } from './ticketOrchestrator';
import { ticketUpstream } from './ticketUpstream';

/**
 * Runs the ticket stage on the curated discovery and planning contexts: one agent per final ticket reads what its ticket touches and proposes a plan and changes (never applied
 * here); the collector reviews the proposals together and hands the outcome to the run, and so to the user.
 */
export function ticketStage(env: StageEnvironment, stages: PipelineBoard['stages']) {
  const discovery = stages.discovery?.result.discoveryCuration;
  const planning = stages.planning?.result.planningCuration;
  if (!discovery || !planning)
    throw new ActionableError(
      "Ticket work needs the discovery and planning stages' results, and this run lacks one (was a stage skipped?). Run them first.",
    );
  const delegation = delegateTickets(env, planning);
  const tickets = new Map(planning.curation.finalizedTickets.map(ticket => [ticket.ticketId, ticket]));
  return runStage(env, {
    stage: 'tickets',
    agentType: 'ticket-agent',
    collectorType: 'ticket-collector',
    delegation,
    upstream: [discovery.contextId, planning.contextId],
    agent: (assignment: AgentAssignment) => {
      const ticket = tickets.get(assignment.contextToPass['ticketId'] ?? '');
      if (ticket === undefined) throw new Error(`ticket orchestrator: ${assignment.agentId} names no final ticket`);
      return {
        action: 'implement-ticket',
        inputType: 'TicketAgentRequest',
        input: attemptNumber => ({ ticketId: ticket.ticketId, attemptNumber, planningContextId: planning.contextId }),
        name: 'ticket_agent_result',
        schema: TicketAgentResult,
        description: `Your implementation plan and proposed changes for ${ticket.ticketId}.`,
        // It may change the files its ticket's tasks name or its tools showed it; creating any existing file is a rewrite.
        draftRequest: exploration =>
          ticketAgentRequest({
            files: env.index.visiblePaths,
            citable: citableFiles(env.index.visiblePaths, [
              ...ticket.tasks.flatMap(task => task.relatedFiles),
              ...(exploration?.seen ?? []),
            ]),
            ticketId: ticket.ticketId,
          }),
        explores: TICKET_EXPLORATION,
        prompt: inputs =>
          renderMessages(
            TicketAgentPrompt,
            { agentId: assignment.agentId, ticket, upstream: ticketUpstream(ticket, discovery, planning), ...inputs },
            env.model,
            env.token,
          ),
        complete: (draft, stamp) => ({
          ...stamp,
          discoveryResultId: discovery.sourceResultId,
          ...draft,
          // The assignment decides the ticket; a model answering for another one is not trusted on that.
          ticketId: ticket.ticketId,
          upstreamContextChain: [env.rootContextId, discovery.contextId, planning.contextId, delegation.resultId],
        }),
        audit: auditTicketResult,
      };
    },
    collector: {
      inputType: 'TicketCollectorRequest',
      inputName: 'results',
      name: 'ticket_collector_result',
      schema: TicketCollectorContext,
      description: 'Your review of the ticket proposals, completion status and decision.',
      draftRequest: ticketCollectorRequest,
      brief: ticketCollectorBrief,
      curate: curateTickets,
      result: (stamped, curated): TicketCollectorResult => ({ ...stamped, ticketCuration: curated }),
    },
    record: (run): TicketStageRecord => ({ stage: 'tickets', delegation, ...run }),
  });
}
