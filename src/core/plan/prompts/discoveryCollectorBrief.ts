import type { DiscoveryReport } from '../schemas/discovery';
import type { AgentOutput, CollectorBrief } from './collectorPrompt';

/** The discovery collector: merge every report into one code map, recommendations and a decision. */
export function discoveryCollectorBrief(reports: readonly AgentOutput<DiscoveryReport>[]): CollectorBrief {
  return {
    name: 'discovery',
    task: [
      'Consolidate the discovery reports below: list each report as an input (inputContextId = its resultId), merge them into one code map',
      '(modules, deduplicated references, one unified diagram, merged tags), write actionable recommendations for planning (supportingDiscoveryIds =',
      'resultIds of the reports behind each), answer the generated queries, and record conflicts between reports and how you resolved them.',
    ],
    // The pipeline's stamp stays out of the body: the title names the resultId, the rest says nothing to consolidate.
    // relevanceScores too: Council derives them from fileReferences, which the collector reads.
    inputs: reports.map(
      ({
        agentId,
        result: { schemaVersion: _version, resultId, upstreamContextId: _up, relevanceScores: _derived, ...report },
      }) => ({
        title: `Report of ${agentId} (resultId ${resultId})`,
        body: JSON.stringify(report),
        source: `discovery-report-${agentId}`,
      }),
    ),
  };
}
