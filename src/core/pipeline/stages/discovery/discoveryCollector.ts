import { renderMessages } from '../../../llm/prompting/render';
import { DiscoveryCollectorPrompt } from '../../prompts/discoveryCollectorPrompt';
import { discoveryCollectorRequest } from '../../drafts/discoveryCollectorRequest';
import { DiscoveryCollectorResult } from '../../schemas/collectors';
import { DiscoveryCollectorContext } from '../../schemas/curation';
import type { DelegationTemplate } from '../../schemas/delegation';
import type { DiscoveryReport } from '../../schemas/discovery';
import { SCHEMA_VERSION } from '../../schemas/version';
import type { AgentRun } from '../previousAttempt';
import { runCollector, type ChainPosition, type CollectedResult } from '../stageCollector';
import type { StageEnvironment } from '../stageEnvironment';
import { curateDiscovery } from './discoveryCuration';

/** A discovery consolidation: the full result (kept with the run) and the accepted handoff of its curated context. */
export type DiscoveryCollected = CollectedResult<DiscoveryCollectorResult>;

/** Runs the discovery collector: consolidate the reports, curate, and hand the curated context to planning. */
export function collectDiscovery(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  runs: readonly AgentRun<DiscoveryReport>[],
  round: number,
  chain: ChainPosition,
  previous?: DiscoveryCollected,
): Promise<DiscoveryCollected> {
  return runCollector(
    env,
    {
      stage: 'discovery',
      agentType: 'discovery-collector',
      inputType: 'DiscoveryCollectorRequest',
      inputName: 'reports',
      delegation,
      upstream: [env.rootContextId],
      next: { agentId: 'planning-orchestrator', agentType: 'planning-orchestrator' },
      payloadName: 'discovery-collector-context',
      contextSchema: DiscoveryCollectorContext,
      name: 'discovery_collector_result',
      description: 'The consolidation of the discovery reports, with your decision.',
      draftRequest: agentRuns =>
        discoveryCollectorRequest({
          stage: 'discovery',
          inputIds: agentRuns.map(run => run.contextId),
          agentIds: delegation.assignments.map(assignment => assignment.agentId),
          files: env.index.visiblePaths,
          queryIds: agentRuns.flatMap(run => run.result.generatedQueries.map(query => query.queryId)),
        }),
      render: (agentRuns, parts) =>
        renderMessages(
          DiscoveryCollectorPrompt,
          {
            goal: env.goal,
            constraints: env.constraints,
            reports: agentRuns.map(run => ({ agentId: run.agentId, report: run.result })),
            ...parts,
          },
          env.model,
          env.token,
        ),
      complete: (draft, { resultId, curatedId, chainIds }) => {
        const curated = curateDiscovery(draft, {
          contextId: curatedId,
          sourceResultId: resultId,
          upstreamContextChain: [...chainIds],
        });
        const result = DiscoveryCollectorResult.parse({
          schemaVersion: SCHEMA_VERSION,
          upstreamContextChain: chainIds,
          metadata: {},
          resultId,
          ...draft,
          discoveryCuration: curated,
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
