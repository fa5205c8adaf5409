import { renderMessages } from '../../../llm/prompting/render';
import { DiscoveryCollectorPrompt } from '../../prompts/discoveryCollectorPrompt';
import { discoveryCollectorRequest } from '../../drafts/discoveryCollectorRequest';
import { DiscoveryCollectorResult } from '../../schemas/collectors';
import { DiscoveryCollectorContext } from '../../schemas/curation';
import type { DelegationTemplate } from '../../schemas/delegation';
import type { DiscoveryReport } from '../../schemas/discovery';
import { SCHEMA_VERSION } from '../../schemas/version';
import { contributionsFor } from '../agentContributions';
import { invokeAgent } from '../agentInvocation';
import type { AgentRun } from '../previousAttempt';
import type { Collected } from '../stageRounds';
import { handOffModelDraft } from '../stageHandoff';
import type { StageEnvironment } from '../stageEnvironment';
import type { ChainPosition } from './discoveryAgent';
import { curateDiscovery } from './discoveryCuration';

/** A discovery consolidation: the full result (kept with the run) and the accepted handoff of its curated context. */
export interface DiscoveryCollected extends Collected {
  readonly result: DiscoveryCollectorResult;
  readonly handoffId: string;
}

/** Runs the discovery collector: consolidate the reports, curate, and hand the curated context to planning. */
export async function collectDiscovery(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  runs: readonly AgentRun<DiscoveryReport>[],
  round: number,
  chain: ChainPosition,
  previous?: DiscoveryCollected,
): Promise<DiscoveryCollected> {
  return invokeAgent(
    env,
    {
      stage: 'discovery',
      agentType: 'discovery-collector',
      agentId: 'discovery-collector',
      action: 'consolidate',
      // A later round consolidates new agent results: a different request, not a repetition.
      inputType: round === 1 ? 'DiscoveryCollectorRequest' : 'DiscoveryCollectorRequest+PreviousContext',
      input: { round, reports: runs.map(run => run.contextId), previousResultId: previous?.result.resultId ?? null },
      upstreamContextIds: runs.map(run => run.contextId),
    },
    async (meter, guidance) => {
      const resultId = env.contextIds.issue('discovery-collector');
      const curatedId = env.contextIds.issue('discovery-collector');
      const chainIds = [env.rootContextId, delegation.resultId, ...runs.map(run => run.contextId)];
      const contributions = await contributionsFor(env, 'discovery-collector', resultId);
      const prompt = await renderMessages(
        DiscoveryCollectorPrompt,
        {
          goal: env.goal,
          constraints: env.constraints,
          reports: runs.map(run => ({ agentId: run.agentId, report: run.result })),
          contributions,
          ...(previous === undefined ? {} : { previous: { attemptNumber: round - 1, serializedOutput: previous.result.consolidatedOutput } }),
          ...(guidance === undefined ? {} : { guidance }),
        },
        env.model,
        env.token,
      );
      let result: DiscoveryCollectorResult | undefined;
      const accepted = await handOffModelDraft(env, {
        source: { agentId: 'discovery-collector', agentType: 'discovery-collector' },
        target: { agentId: 'planning-orchestrator', agentType: 'planning-orchestrator' },
        payloadName: 'discovery-collector-context',
        schema: DiscoveryCollectorContext,
        chain,
        stage: 'discovery',
        draft: {
          ...discoveryCollectorRequest({
            stage: 'discovery',
            inputIds: runs.map(run => run.contextId),
            agentIds: delegation.assignments.map(assignment => assignment.agentId),
            files: env.index.visiblePaths,
            queryIds: runs.flatMap(run => run.result.generatedQueries.map(query => query.queryId)),
          }),
          name: 'discovery_collector_result', description: 'The consolidation of the discovery reports, with your decision.', messages: prompt.messages, meter },
        complete: draft => {
          const curated = curateDiscovery(draft, { contextId: curatedId, sourceResultId: resultId, upstreamContextChain: chainIds });
          result = DiscoveryCollectorResult.parse({
            schemaVersion: SCHEMA_VERSION,
            upstreamContextChain: chainIds,
            metadata: {},
            resultId,
            ...draft,
            discoveryCuration: curated,
          });
          return curated;
        },
      });
      if (result === undefined) throw new Error('discovery collector: no result was produced');
      env.knownContextIds.add(resultId).add(curatedId);
      const collected: DiscoveryCollected = { decision: result.decision, result, handoffId: accepted.handoffId };
      return { value: collected, output: result, contextId: resultId };
    },
  );
}
