import { renderMessages } from '../../../llm/prompting/render';
import { PlanningAgentPrompt } from '../../prompts/planningAgentPrompt';
import { planningAgentRequest } from '../../drafts/planningRequest';
import type { DiscoveryCollectorContext } from '../../schemas/curation';
import type { AgentAssignment, DelegationTemplate } from '../../schemas/delegation';
import { PlanningAgentResult } from '../../schemas/planning';
import { SCHEMA_VERSION } from '../../schemas/version';
import type { AgentRun, RerunInput } from '../previousAttempt';
import { runStageAgent } from '../stageAgent';
import type { ChainPosition } from '../stageCollector';
import type { StageEnvironment } from '../stageEnvironment';

/** Runs one planning agent: tickets for its share of the recommendations, from the curated discovery context only. */
export function runPlanningAgent(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  discovery: DiscoveryCollectorContext,
  assignment: AgentAssignment,
  chain: ChainPosition,
  routeBackFeedback: string | undefined,
  rerun?: RerunInput<PlanningAgentResult>,
): Promise<AgentRun<PlanningAgentResult>> {
  return runStageAgent(
    env,
    {
      stage: 'planning',
      agentType: 'planning-agent',
      action: 'plan-tickets',
      inputType: 'PlanningAgentRequest',
      input: attemptNumber => ({ assignment, attemptNumber, discoveryContextId: discovery.contextId }),
      upstreamContextIds: [delegation.resultId, discovery.contextId],
      collector: { agentId: 'planning-collector', agentType: 'planning-collector' },
      payloadName: 'planning-agent-result',
      schema: PlanningAgentResult,
      name: 'planning_agent_result',
      description: 'The tickets you propose, with tasks, acceptance criteria and dependencies.',
      draftRequest: planningAgentRequest({
        files: env.index.visiblePaths,
        discoveryResultId: discovery.sourceResultId,
      }),
      prompt: parts =>
        renderMessages(
          PlanningAgentPrompt,
          {
            goal: env.goal,
            constraints: env.constraints,
            assignment,
            discovery: JSON.stringify(discovery.curation),
            ticketPrefix: assignment.contextToPass['ticketPrefix'] ?? `${assignment.agentId}-T`,
            ...parts,
            ...(routeBackFeedback === undefined ? {} : { routeBackFeedback }),
          },
          env.model,
          env.token,
        ),
      complete: (draft, resultId) => ({
        schemaVersion: SCHEMA_VERSION,
        resultId,
        upstreamContextId: delegation.resultId,
        discoveryResultId: discovery.sourceResultId,
        ...draft,
      }),
    },
    assignment,
    chain,
    rerun,
  );
}
