import { renderMessages } from '../../../llm/prompting/render';
import { PlanningAgentPrompt } from '../../prompts/planningAgentPrompt';
import type { DiscoveryCollectorContext } from '../../schemas/curation';
import type { AgentAssignment, DelegationTemplate } from '../../schemas/delegation';
import { planningAgentRequest } from '../../drafts/planningRequest';
import { PlanningAgentResult } from '../../schemas/planning';
import { SCHEMA_VERSION } from '../../schemas/version';
import { contributionsFor } from '../agentContributions';
import { invokeAgent } from '../agentInvocation';
import type { ChainPosition } from '../stageCollector';
import { previousAttemptView, previousContextOf, type AgentRun, type RerunInput } from '../previousAttempt';
import { handOffModelDraft } from '../stageHandoff';
import type { StageEnvironment } from '../stageEnvironment';

/** Runs one planning agent: tickets for its share of the recommendations, from the curated discovery context only. */
export async function runPlanningAgent(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  discovery: DiscoveryCollectorContext,
  assignment: AgentAssignment,
  chain: ChainPosition,
  routeBackFeedback: string | undefined,
  rerun?: RerunInput<PlanningAgentResult>,
): Promise<AgentRun<PlanningAgentResult>> {
  const previousContext = rerun === undefined ? undefined : previousContextOf('planning-agent', rerun);
  const attemptNumber = (rerun?.previous.attempt ?? 0) + 1;
  return invokeAgent(
    env,
    {
      stage: 'planning',
      agentType: 'planning-agent',
      agentId: assignment.agentId,
      action: 'plan-tickets',
      inputType: 'PlanningAgentRequest',
      input: { assignment, attemptNumber, discoveryContextId: discovery.contextId },
      upstreamContextIds: [delegation.resultId, discovery.contextId],
    },
    async (meter, guidance) => {
      const resultId = env.contextIds.issue('planning-agent');
      const contributions = await contributionsFor(env, 'planning-agent', resultId, previousContext);
      const prompt = await renderMessages(
        PlanningAgentPrompt,
        {
          goal: env.goal,
          constraints: env.constraints,
          assignment,
          discovery: JSON.stringify(discovery.curation),
          ticketPrefix: assignment.contextToPass['ticketPrefix'] ?? `${assignment.agentId}-T`,
          contributions,
          ...(previousContext === undefined ? {} : { previous: previousAttemptView(previousContext) }),
          ...(guidance === undefined ? {} : { guidance }),
          ...(routeBackFeedback === undefined ? {} : { routeBackFeedback }),
        },
        env.model,
        env.token,
      );
      const accepted = await handOffModelDraft(env, {
        source: { agentId: assignment.agentId, agentType: 'planning-agent' },
        target: { agentId: 'planning-collector', agentType: 'planning-collector' },
        payloadName: 'planning-agent-result',
        schema: PlanningAgentResult,
        chain,
        stage: 'planning',
        draft: { ...planningAgentRequest({ files: env.index.visiblePaths, discoveryResultId: discovery.sourceResultId }), name: 'planning_agent_result', description: 'The tickets you propose, with tasks, acceptance criteria and dependencies.', messages: prompt.messages, meter },
        complete: draft => {
          return { schemaVersion: SCHEMA_VERSION, resultId, upstreamContextId: delegation.resultId, discoveryResultId: discovery.sourceResultId, ...draft };
        },
      });
      env.knownContextIds.add(resultId);
      const run: AgentRun<PlanningAgentResult> = {
        agentId: assignment.agentId,
        result: accepted.payload,
        contextId: resultId,
        handoffId: accepted.handoffId,
        attempt: attemptNumber,
        finishedAt: env.clock.now(),
      };
      return { value: run, output: accepted.payload, contextId: resultId };
    },
  );
}
