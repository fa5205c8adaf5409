import { renderMessages } from '../../../llm/prompting/render';
import { TicketCollectorPrompt } from '../../prompts/ticketCollectorPrompt';
import { ticketCollectorRequest } from '../../drafts/ticketCollectorRequest';
import { TicketCollectorResult } from '../../schemas/collectors';
import { TicketCollectorContext } from '../../schemas/curation';
import type { DelegationTemplate } from '../../schemas/delegation';
import type { TicketAgentResult } from '../../schemas/tickets';
import { SCHEMA_VERSION } from '../../schemas/version';
import { contributionsFor } from '../agentContributions';
import { invokeAgent } from '../agentInvocation';
import type { ChainPosition } from '../discovery/discoveryAgent';
import { consolidationSummaryOf } from '../discovery/discoveryCuration';
import type { AgentRun } from '../previousAttempt';
import type { Collected } from '../stageRounds';
import { handOffModelDraft } from '../stageHandoff';
import type { StageEnvironment } from '../stageEnvironment';
import type { TicketUpstream } from './ticketAgent';

/** A ticket consolidation: the full result and the accepted handoff of its curated context. */
export interface TicketCollected extends Collected {
  readonly result: TicketCollectorResult;
  readonly handoffId: string;
}

/** Runs the ticket collector: review the proposals together and hand the outcome to the run (and so to the user). */
export async function collectTickets(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  upstream: TicketUpstream,
  runs: readonly AgentRun<TicketAgentResult>[],
  round: number,
  chain: ChainPosition,
  previous?: TicketCollected,
): Promise<TicketCollected> {
  const knownTickets = new Set(upstream.planning.curation.finalizedTickets.map(t => t.ticketId));
  return invokeAgent(
    env,
    {
      stage: 'tickets',
      agentType: 'ticket-collector',
      agentId: 'ticket-collector',
      action: 'consolidate',
      inputType: round === 1 ? 'TicketCollectorRequest' : 'TicketCollectorRequest+PreviousContext',
      input: { round, results: runs.map(run => run.contextId), previousResultId: previous?.result.resultId ?? null },
      upstreamContextIds: runs.map(run => run.contextId),
    },
    async (meter, guidance) => {
      const resultId = env.contextIds.issue('ticket-collector');
      const curatedId = env.contextIds.issue('ticket-collector');
      const chainIds = [env.rootContextId, upstream.discovery.contextId, upstream.planning.contextId, delegation.resultId, ...runs.map(run => run.contextId)];
      const contributions = await contributionsFor(env, 'ticket-collector', resultId);
      const prompt = await renderMessages(
        TicketCollectorPrompt,
        {
          goal: env.goal,
          constraints: env.constraints,
          results: runs.map(run => ({ agentId: run.agentId, result: run.result })),
          contributions,
          ...(previous === undefined ? {} : { previous: { attemptNumber: round - 1, serializedOutput: previous.result.consolidatedOutput } }),
          ...(guidance === undefined ? {} : { guidance }),
        },
        env.model,
        env.token,
      );
      let result: TicketCollectorResult | undefined;
      const accepted = await handOffModelDraft(env, {
        source: { agentId: 'ticket-collector', agentType: 'ticket-collector' },
        target: { agentId: 'orchestrator', agentType: 'orchestrator' },
        payloadName: 'ticket-collector-context',
        schema: TicketCollectorContext,
        chain,
        stage: 'tickets',
        knownTickets,
        draft: {
          ...ticketCollectorRequest({ stage: 'tickets', inputIds: runs.map(run => run.contextId), agentIds: delegation.assignments.map(assignment => assignment.agentId) }),
          name: 'ticket_collector_result', description: 'Your review of the ticket proposals, completion status and decision.', messages: prompt.messages, meter },
        complete: draft => {
          // Ticket proposals are the run's deliverables, so the curation keeps them whole.
          const curated = TicketCollectorContext.parse({
            contextId: curatedId,
            sourceResultId: resultId,
            selectionRationale: 'Every ticket proposal (the deliverables), completion status and follow-ups.',
            curation: {
              ticketAgentResults: runs.map(run => run.result),
              completionStatus: draft.completionStatus,
              followUps: draft.followUps,
              consolidationSummary: consolidationSummaryOf(draft, chainIds),
            },
          });
          result = TicketCollectorResult.parse({ schemaVersion: SCHEMA_VERSION, upstreamContextChain: chainIds, metadata: {}, resultId, ...draft, ticketCuration: curated });
          return curated;
        },
      });
      if (result === undefined) throw new Error('ticket collector: no result was produced');
      env.knownContextIds.add(resultId).add(curatedId);
      return { value: { decision: result.decision, result, handoffId: accepted.handoffId }, output: result, contextId: resultId };
    },
  );
}
