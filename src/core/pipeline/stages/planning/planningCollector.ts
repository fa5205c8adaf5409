import { renderMessages } from '../../../llm/prompting/render';
import { PlanningCollectorPrompt } from '../../prompts/planningCollectorPrompt';
import { planningCollectorRequest } from '../../drafts/planningRequest';
import { PlanningCollectorResult } from '../../schemas/collectors';
import { PlanningCollectorContext, type DiscoveryCollectorContext } from '../../schemas/curation';
import type { DelegationTemplate } from '../../schemas/delegation';
import type { PlanningAgentResult } from '../../schemas/planning';
import { SCHEMA_VERSION } from '../../schemas/version';
import { contributionsFor } from '../agentContributions';
import { invokeAgent } from '../agentInvocation';
import type { ChainPosition } from '../discovery/discoveryAgent';
import type { AgentRun } from '../previousAttempt';
import type { Collected } from '../stageRounds';
import { handOffModelDraft } from '../stageHandoff';
import type { StageEnvironment } from '../stageEnvironment';
import { curatePlanning } from './planningCuration';

/** A planning consolidation: the full result and the accepted handoff of its curated context. */
export interface PlanningCollected extends Collected {
  readonly result: PlanningCollectorResult;
  readonly handoffId: string;
}

/**
 * Runs the planning collector: merge the tickets into a final acyclic set. A cyclic graph fails the draft schema
 * and is sent back to the model for repair; if it stays cyclic the run fails with a message naming the cycle.
 */
export async function collectPlanning(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  discovery: DiscoveryCollectorContext,
  runs: readonly AgentRun<PlanningAgentResult>[],
  round: number,
  chain: ChainPosition,
  previous?: PlanningCollected,
): Promise<PlanningCollected> {
  return invokeAgent(
    env,
    {
      stage: 'planning',
      agentType: 'planning-collector',
      agentId: 'planning-collector',
      action: 'consolidate',
      inputType: round === 1 ? 'PlanningCollectorRequest' : 'PlanningCollectorRequest+PreviousContext',
      input: { round, results: runs.map(run => run.contextId), previousResultId: previous?.result.resultId ?? null },
      upstreamContextIds: runs.map(run => run.contextId),
    },
    async (meter, guidance) => {
      const resultId = env.contextIds.issue('planning-collector');
      const curatedId = env.contextIds.issue('planning-collector');
      const chainIds = [env.rootContextId, discovery.contextId, delegation.resultId, ...runs.map(run => run.contextId)];
      const contributions = await contributionsFor(env, 'planning-collector', resultId);
      const prompt = await renderMessages(
        PlanningCollectorPrompt,
        {
          goal: env.goal,
          constraints: env.constraints,
          results: runs.map(run => ({ agentId: run.agentId, result: run.result })),
          discovery: JSON.stringify(discovery.curation),
          contributions,
          ...(previous === undefined ? {} : { previous: { attemptNumber: round - 1, serializedOutput: previous.result.consolidatedOutput } }),
          ...(guidance === undefined ? {} : { guidance }),
        },
        env.model,
        env.token,
      );
      let result: PlanningCollectorResult | undefined;
      const accepted = await handOffModelDraft(env, {
        source: { agentId: 'planning-collector', agentType: 'planning-collector' },
        target: { agentId: 'ticket-orchestrator', agentType: 'ticket-orchestrator' },
        payloadName: 'planning-collector-context',
        schema: PlanningCollectorContext,
        chain,
        stage: 'planning',
        draft: {
          ...planningCollectorRequest({
            stage: 'planning',
            inputIds: runs.map(run => run.contextId),
            agentIds: delegation.assignments.map(assignment => assignment.agentId),
            files: env.index.visiblePaths,
            discoveryResultId: discovery.sourceResultId,
          }),
          name: 'planning_collector_result', description: 'The final tickets and their acyclic dependency graph, with your decision.', messages: prompt.messages, meter },
        complete: draft => {
          const curated = curatePlanning(draft, {
            contextId: curatedId,
            sourceResultId: resultId,
            discoveryResultId: discovery.sourceResultId,
            upstreamContextChain: chainIds,
          });
          result = PlanningCollectorResult.parse({
            schemaVersion: SCHEMA_VERSION,
            upstreamContextChain: chainIds,
            metadata: {},
            resultId,
            ...draft,
            discoveryResultId: discovery.sourceResultId,
            planningCuration: curated,
          });
          return curated;
        },
      });
      if (result === undefined) throw new Error('planning collector: no result was produced');
      env.knownContextIds.add(resultId).add(curatedId);
      return { value: { decision: result.decision, result, handoffId: accepted.handoffId }, output: result, contextId: resultId };
    },
  );
}
