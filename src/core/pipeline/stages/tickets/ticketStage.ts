import type { TicketAgentResult } from '../../schemas/tickets';
import type { StageEnvironment } from '../stageEnvironment';
import { roundsRecord, runStageRounds } from '../stageRounds';
import { runTicketAgent, type TicketUpstream } from './ticketAgent';
import { collectTickets, type TicketCollected } from './ticketCollector';
import { delegateTickets } from './ticketOrchestrator';
import type { TicketStageRecord } from './ticketStageRecord';

/** Handoff depth of ticket agents: below the planning collector's handoff. */
const AGENT_DEPTH = 4;

/** Runs the ticket stage on the curated discovery and planning contexts. */
export async function runTicketStage(
  env: StageEnvironment,
  upstream: TicketUpstream,
  planningHandoffId: string,
): Promise<TicketStageRecord> {
  const delegation = delegateTickets(env, upstream.planning);
  const tickets = new Map(upstream.planning.curation.finalizedTickets.map(ticket => [ticket.ticketId, ticket]));
  const rounds = await runStageRounds<TicketAgentResult, TicketCollected>(env, {
    stage: 'tickets',
    agentType: 'ticket-agent',
    delegation,
    runAgent: (assignment, rerun) => {
      const ticket = tickets.get(assignment.contextToPass['ticketId'] ?? '');
      if (ticket === undefined) throw new Error(`ticket orchestrator: ${assignment.agentId} names no final ticket`);
      return runTicketAgent(
        env,
        delegation,
        upstream,
        ticket,
        assignment,
        { depth: AGENT_DEPTH, parentHandoffId: planningHandoffId },
        rerun,
      );
    },
    collect: (runs, round, previous) =>
      collectTickets(
        env,
        delegation,
        upstream,
        runs,
        round,
        { depth: AGENT_DEPTH + 1, parentHandoffId: runs[0]?.handoffId ?? planningHandoffId },
        previous,
      ),
  });
  return { stage: 'tickets', delegation, ...roundsRecord(rounds) };
}
