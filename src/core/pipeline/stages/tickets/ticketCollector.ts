import { renderMessages } from '../../../llm/prompting/render';
import { TicketCollectorPrompt } from '../../prompts/ticketCollectorPrompt';
import { ticketCollectorRequest } from '../../drafts/ticketCollectorRequest';
import { TicketCollectorResult } from '../../schemas/collectors';
import { TicketCollectorContext } from '../../schemas/curation';
import type { DelegationTemplate } from '../../schemas/delegation';
import type { TicketAgentResult } from '../../schemas/tickets';
import { SCHEMA_VERSION } from '../../schemas/version';
import { consolidationSummaryOf } from '../discovery/discoveryCuration';
import type { AgentRun } from '../previousAttempt';
import { runCollector, type ChainPosition, type CollectedResult } from '../stageCollector';
import type { StageEnvironment } from '../stageEnvironment';
import type { TicketUpstream } from './ticketAgent';

/** A ticket consolidation: the full result and the accepted handoff of its curated context. */
export type TicketCollected = CollectedResult<TicketCollectorResult>;

/** Runs the ticket collector: review the proposals together and hand the outcome to the run (and so to the user). */
export function collectTickets(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  upstream: TicketUpstream,
  runs: readonly AgentRun<TicketAgentResult>[],
  round: number,
  chain: ChainPosition,
  previous?: TicketCollected,
): Promise<TicketCollected> {
  return runCollector(
    env,
    {
      stage: 'tickets',
      agentType: 'ticket-collector',
      inputType: 'TicketCollectorRequest',
      inputName: 'results',
      delegation,
      upstream: [env.rootContextId, upstream.discovery.contextId, upstream.planning.contextId],
      next: { agentId: 'orchestrator', agentType: 'orchestrator' },
      payloadName: 'ticket-collector-context',
      contextSchema: TicketCollectorContext,
      knownTickets: new Set(upstream.planning.curation.finalizedTickets.map(t => t.ticketId)),
      name: 'ticket_collector_result',
      description: 'Your review of the ticket proposals, completion status and decision.',
      draftRequest: agentRuns =>
        ticketCollectorRequest({
          stage: 'tickets',
          inputIds: agentRuns.map(run => run.contextId),
          agentIds: delegation.assignments.map(assignment => assignment.agentId),
        }),
      render: (agentRuns, parts) =>
        renderMessages(
          TicketCollectorPrompt,
          {
            goal: env.goal,
            constraints: env.constraints,
            results: agentRuns.map(run => ({ agentId: run.agentId, result: run.result })),
            ...parts,
          },
          env.model,
          env.token,
        ),
      complete: (draft, { resultId, curatedId, chainIds }, agentRuns) => {
        // Ticket proposals are the run's deliverables, so the curation keeps them whole.
        const curated = TicketCollectorContext.parse({
          contextId: curatedId,
          sourceResultId: resultId,
          selectionRationale: 'Every ticket proposal (the deliverables), completion status and follow-ups.',
          curation: {
            ticketAgentResults: agentRuns.map(run => run.result),
            completionStatus: draft.completionStatus,
            followUps: draft.followUps,
            consolidationSummary: consolidationSummaryOf(draft, [...chainIds]),
          },
        });
        const result = TicketCollectorResult.parse({
          schemaVersion: SCHEMA_VERSION,
          upstreamContextChain: chainIds,
          metadata: {},
          resultId,
          ...draft,
          ticketCuration: curated,
        });
        return { curated, result };
      },
    },
    runs,
    round,
    chain,
    previous,
  );
}
