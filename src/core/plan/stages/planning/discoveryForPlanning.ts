import type { DiscoveryCollectorContext } from '../../schemas/curation';

/**
 * The curated discovery context as the planning prompts read it (JSON): the code map, recommendations and query
 * findings, the consolidated summary and its conflict resolutions, the curated reports when there are any. The
 * consolidation's bookkeeping (its inputs, merge strategy, metrics, decision, context chain, metadata) stays in the
 * run's record: planning does not plan from it, and every planning request would pay for it again.
 */
export function discoveryForPlanning(discovery: DiscoveryCollectorContext): string {
  const { discoveryReports, consolidationSummary, ...findings } = discovery.curation;
  const { consolidatedOutput, conflictResolutions } = consolidationSummary;
  return JSON.stringify({
    ...(discoveryReports.length > 0 ? { discoveryReports } : {}),
    ...findings,
    consolidatedOutput,
    ...(conflictResolutions.length > 0 ? { conflictResolutions } : {}),
  });
}
