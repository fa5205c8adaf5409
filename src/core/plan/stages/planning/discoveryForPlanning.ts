import type { DiscoveryCollectorContext } from '../../schemas/curation';

type Curation = DiscoveryCollectorContext['curation'];

/**
 * The recommendations as planning reads them: without the ids of the reports behind each (`supportingDiscoveryIds`),
 * which stay in the run's record. Planning links its tickets to discovery's result and findings, never to a report,
 * and each id is a long context id every planning request would pay for again.
 */
function recommendationsForPlanning(recommendations: Curation['recommendations']) {
  return recommendations.map(({ supportingDiscoveryIds: _reports, ...recommendation }) => recommendation);
}

/**
 * The curated discovery context as the planning agents read it (JSON): the code map, recommendations and query
 * findings, the consolidated summary and its conflict resolutions, the curated reports when there are any. The
 * consolidation's bookkeeping (its inputs, merge strategy, metrics, decision, context chain, metadata) stays in the
 * run's record: planning does not plan from it, and every planning request would pay for it again.
 */
export function discoveryForPlanning(discovery: DiscoveryCollectorContext): string {
  const { discoveryReports, consolidationSummary, recommendations, ...findings } = discovery.curation;
  const { consolidatedOutput, conflictResolutions } = consolidationSummary;
  return JSON.stringify({
    ...(discoveryReports.length > 0 ? { discoveryReports } : {}),
    ...findings,
    recommendations: recommendationsForPlanning(recommendations),
    consolidatedOutput,
    ...(conflictResolutions.length > 0 ? { conflictResolutions } : {}),
  });
}

/**
 * What the planning collector reads of discovery (JSON): the recommendations its final tickets must cover and the
 * consolidated summary. It merges the agents' tickets, which already name their files and link their findings; the
 * code map the agents planned from would be the same context paid for once more.
 */
export function discoveryForPlanningCollector(discovery: DiscoveryCollectorContext): string {
  return JSON.stringify({
    recommendations: recommendationsForPlanning(discovery.curation.recommendations),
    consolidatedOutput: discovery.curation.consolidationSummary.consolidatedOutput,
  });
}
