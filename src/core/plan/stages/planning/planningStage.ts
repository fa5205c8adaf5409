import { renderMessages } from '../../../llm/prompting/render';
import { planningAgentRequest, planningCollectorRequest } from '../../drafts/planningRequest';
import { PlanningAgentPrompt } from '../../prompts/planningAgentPrompt';
import { planningCollectorBrief } from '../../prompts/planningCollectorBrief';
import type { PlanningCollectorResult } from '../../schemas/collectors';
import { ActionableError } from '../../../actionableError';
import type { PipelineBoard } from '../../pipelineBoard';
import type { AgentAssignment } from '../../schemas/delegation';
import { PlanningCollectorContext } from '../../schemas/curation';
import { PlanningAgentResult } from '../../schemas/planning';
import { runStage } from '../stageDescriptor';
import type { StageEnvironment } from '../stageEnvironment';
import type { PlanningStageRecord } from '../stageRecords';
import { curatePlanning } from './planningCuration';
import { delegatePlanning } from './planningOrchestrator';
import { discoveryForPlanning, discoveryForPlanningCollector } from './discoveryForPlanning';

/**
 * Runs planning on the curated discovery context: agents turn
 * their share of the recommendations into tickets; the collector merges them into a final acyclic set. A cyclic graph
 * fails the draft schema and is sent back to the model for repair; if it stays cyclic the run fails naming the cycle.
 */
export function planningStage(env: StageEnvironment, stages: PipelineBoard['stages']) {
  const discovery = stages.discovery?.result.discoveryCuration;
  if (!discovery)
    throw new ActionableError(
      "Planning needs the discovery stage's result, and this run has none (was discovery skipped?). Run discovery first.",
    );
  const delegation = delegatePlanning(env, discovery);
  const discoveryResultId = discovery.sourceResultId;
  const found = discoveryForPlanning(discovery);
  return runStage(env, {
    stage: 'planning',
    agentType: 'planning-agent',
    collectorType: 'planning-collector',
    delegation,
    upstream: [discovery.contextId],
    agent: (assignment: AgentAssignment) => ({
      action: 'plan-tickets',
      inputType: 'PlanningAgentRequest',
      input: attemptNumber => ({ assignment, attemptNumber, discoveryContextId: discovery.contextId }),
      name: 'planning_agent_result',
      schema: PlanningAgentResult,
      description: 'The tickets you propose, with tasks, acceptance criteria and dependencies.',
      draftRequest: () => planningAgentRequest({ files: env.index.visiblePaths, discoveryResultId }),
      // Planning agents work from the curated discovery context only: nothing to explore.
      prompt: parts =>
        renderMessages(
          PlanningAgentPrompt,
          {
            assignment,
            discovery: found,
            ticketPrefix: assignment.contextToPass['ticketPrefix'] ?? `${assignment.agentId}-T`,
            ...parts,
          },
          env.model,
          env.token,
        ),
      complete: (draft, stamp) => ({ ...stamp, discoveryResultId, ...draft }),
    }),
    collector: {
      inputType: 'PlanningCollectorRequest',
      inputName: 'results',
      name: 'planning_collector_result',
      schema: PlanningCollectorContext,
      description: 'The final tickets and their acyclic dependency graph, with your decision.',
      draftRequest: vocabulary =>
        planningCollectorRequest({ ...vocabulary, files: env.index.visiblePaths, discoveryResultId }),
      brief: runs => planningCollectorBrief(runs, discoveryForPlanningCollector(discovery)),
      curate: (draft, ids) => curatePlanning(draft, { ...ids, discoveryResultId }),
      result: (stamped, curated): PlanningCollectorResult => ({
        ...stamped,
        discoveryResultId,
        planningCuration: curated,
      }),
    },
    record: (run): PlanningStageRecord => ({ stage: 'planning', delegation, ...run }),
  });
}
