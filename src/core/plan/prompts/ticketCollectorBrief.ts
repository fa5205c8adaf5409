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
    inputs: results.map(({ agentId, result }) => ({
      title: `Proposal of ${agentId} for ${result.ticketId} (resultId ${result.resultId})`,
      body: JSON.stringify(result),
      source: `ticket-result-${agentId}`,
    })),
  };
}
