import type { TicketAgentResult } from '../schemas/tickets';
import type { AgentOutput, CollectorBrief } from './collectorPrompt';

/** The ticket collector: check the proposals against each other and judge how complete the work is. */
export function ticketCollectorBrief(results: readonly AgentOutput<TicketAgentResult>[]): CollectorBrief {
  return {
    name: 'ticket',
    task: [
      "Review the ticket agents' proposals together: list each as an input (inputContextId = its resultId), find proposals that conflict",
      '(e.g. two tickets changing the same lines differently) and say how to resolve them, judge completion (complete / partial / blocked) and list follow-ups.',
    ],
    // The pipeline's stamp stays out of the body: the title names the resultId, the rest says nothing to review.
    inputs: results.map(({ agentId, result }) => {
      const {
        schemaVersion: _version,
        resultId,
        upstreamContextId: _up,
        discoveryResultId: _discovery,
        upstreamContextChain: _chain,
        ...proposal
      } = result;
      return {
        title: `Proposal of ${agentId} for ${result.ticketId} (resultId ${resultId})`,
        body: JSON.stringify(proposal),
        source: `ticket-result-${agentId}`,
      };
    }),
  };
}
