import { renderMessages } from '../../../llm/prompting/render';
import { PlanningCollectorPrompt } from '../../prompts/planningCollectorPrompt';
import { planningCollectorRequest } from '../../drafts/planningRequest';
import { PlanningCollectorResult } from '../../schemas/collectors';
import { PlanningCollectorContext, type DiscoveryCollectorContext } from '../../schemas/curation';
import type { DelegationTemplate } from '../../schemas/delegation';
import type { PlanningAgentResult } from '../../schemas/planning';
import { SCHEMA_VERSION } from '../../schemas/version';
import type { AgentRun } from '../previousAttempt';
import { runCollector, type ChainPosition, type CollectedResult } from '../stageCollector';
import type { StageEnvironment } from '../stageEnvironment';
import { curatePlanning } from './planningCuration';

/** A planning consolidation: the full result and the accepted handoff of its curated context. */
export type PlanningCollected = CollectedResult<PlanningCollectorResult>;

/**
 * Runs the planning collector: merge the tickets into a final acyclic set. A cyclic graph fails the draft schema
 * and is sent back to the model for repair; if it stays cyclic the run fails with a message naming the cycle.
 */
export function collectPlanning(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  discovery: DiscoveryCollectorContext,
  runs: readonly AgentRun<PlanningAgentResult>[],
  round: number,
  chain: ChainPosition,
  previous?: PlanningCollected,
): Promise<PlanningCollected> {
  return runCollector(
    env,
    {
      stage: 'planning',
      agentType: 'planning-collector',
      inputType: 'PlanningCollectorRequest',
      inputName: 'results',
      delegation,
      upstream: [env.rootContextId, discovery.contextId],
      next: { agentId: 'ticket-orchestrator', agentType: 'ticket-orchestrator' },
      payloadName: 'planning-collector-context',
      contextSchema: PlanningCollectorContext,
      name: 'planning_collector_result',
      description: 'The final tickets and their acyclic dependency graph, with your decision.',
      draftRequest: agentRuns =>
        planningCollectorRequest({
          stage: 'planning',
          inputIds: agentRuns.map(run => run.contextId),
          agentIds: delegation.assignments.map(assignment => assignment.agentId),
          files: env.index.visiblePaths,
          discoveryResultId: discovery.sourceResultId,
        }),
      render: (agentRuns, parts) =>
        renderMessages(
          PlanningCollectorPrompt,
          {
            goal: env.goal,
            constraints: env.constraints,
            results: agentRuns.map(run => ({ agentId: run.agentId, result: run.result })),
            discovery: JSON.stringify(discovery.curation),
            ...parts,
          },
          env.model,
          env.token,
        ),
      complete: (draft, { resultId, curatedId, chainIds }) => {
        const curated = curatePlanning(draft, {
          contextId: curatedId,
          sourceResultId: resultId,
          discoveryResultId: discovery.sourceResultId,
          upstreamContextChain: [...chainIds],
        });
        const result = PlanningCollectorResult.parse({
          schemaVersion: SCHEMA_VERSION,
          upstreamContextChain: chainIds,
          metadata: {},
          resultId,
          ...draft,
          discoveryResultId: discovery.sourceResultId,
          planningCuration: curated,
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
