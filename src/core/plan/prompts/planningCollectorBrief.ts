import type { PlanningAgentResult } from '../schemas/planning';
import type { AgentOutput, CollectorBrief } from './collectorPrompt';

/**
 * The planning collector: merge the agents' tickets into one final, acyclic ticket set. `discovery` is what it reads
 * of discovery's result, as JSON: the recommendations the tickets must cover (see discoveryForPlanningCollector).
 */
export function planningCollectorBrief(
  results: readonly AgentOutput<PlanningAgentResult>[],
  discovery: string,
): CollectorBrief {
  return {
    name: 'planning',
    task: [
      "Merge the planning agents' tickets into the final tickets: drop duplicates, keep ticket ids stable, and give the dependency graph as edges",
      '(fromTicketId must be done before toTicketId). The graph MUST be acyclic; every ticket in a dependency must be a final ticket.',
      'List each planning result as an input (inputContextId = its resultId) and record conflicts and how you resolved them.',
    ],
    inputs: results.map(({ agentId, result }) => ({
      title: `Tickets of ${agentId} (resultId ${result.resultId})`,
      body: JSON.stringify(result.tickets),
      source: `planning-result-${agentId}`,
    })),
    context: [{ title: 'What discovery recommended', body: discovery, source: 'discovery-context', priority: 1100 }],
  };
}
