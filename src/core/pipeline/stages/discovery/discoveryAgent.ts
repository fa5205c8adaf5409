import { DiscoveryAgentPrompt } from '../../prompts/discoveryAgentPrompt';
import { discoveryReportRequest } from '../../drafts/discoveryReportRequest';
import { DiscoveryReport } from '../../schemas/discovery';
import type { AgentAssignment, DelegationTemplate } from '../../schemas/delegation';
import { SCHEMA_VERSION } from '../../schemas/version';
import { contributionsFor } from '../agentContributions';
import { exploreThenReport } from '../exploreThenReport';
import { invokeAgent } from '../agentInvocation';
import { previousAttemptView, previousContextOf, type AgentRun, type RerunInput } from '../previousAttempt';
import { handOffModelDraft } from '../stageHandoff';
import type { ChainPosition } from '../stageCollector';
import type { StageEnvironment } from '../stageEnvironment';


/** Runs one discovery agent: explore with read-only tools, report, hand the report to the collector. */
export async function runDiscoveryAgent(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  assignment: AgentAssignment,
  chain: ChainPosition,
  routeBackFeedback: string | undefined,
  rerun?: RerunInput<DiscoveryReport>,
): Promise<AgentRun<DiscoveryReport>> {
  const previousContext = rerun === undefined ? undefined : previousContextOf('discovery-agent', rerun);
  const attemptNumber = (rerun?.previous.attempt ?? 0) + 1;
  return invokeAgent(
    env,
    {
      stage: 'discovery',
      agentType: 'discovery-agent',
      agentId: assignment.agentId,
      action: 'discover',
      inputType: 'DiscoveryAgentRequest',
      input: { assignment, attemptNumber, previousContextId: previousContext?.previousContextId ?? null },
      upstreamContextIds: [delegation.resultId],
    },
    async (meter, guidance) => {
      const resultId = env.contextIds.issue('discovery-agent');
      const contributions = await contributionsFor(env, 'discovery-agent', resultId, previousContext);
      const props = {
        goal: env.goal,
        constraints: env.constraints,
        assignment,
        contributions,
        ...(previousContext === undefined ? {} : { previous: previousAttemptView(previousContext) }),
        ...(guidance === undefined ? {} : { guidance }),
        ...(routeBackFeedback === undefined ? {} : { routeBackFeedback }),
      };
      const { messages, exploration } = await exploreThenReport(env, DiscoveryAgentPrompt, props, env.options.discoveryExploration, meter);
      const accepted = await handOffModelDraft(env, {
        source: { agentId: assignment.agentId, agentType: 'discovery-agent' },
        target: { agentId: 'discovery-collector', agentType: 'discovery-collector' },
        payloadName: 'discovery-report',
        schema: DiscoveryReport,
        chain,
        stage: 'discovery',
        draft: { ...discoveryReportRequest(env.index.visiblePaths), name: 'discovery_report', description: 'Your discovery report on your area of the codebase.', messages, meter },
        complete: draft => {
          return { schemaVersion: SCHEMA_VERSION, resultId, upstreamContextId: delegation.resultId, ...draft };
        },
      });
      env.knownContextIds.add(resultId);
      const run: AgentRun<DiscoveryReport> = {
        agentId: assignment.agentId,
        result: accepted.payload,
        contextId: resultId,
        handoffId: accepted.handoffId,
        attempt: attemptNumber,
        finishedAt: env.clock.now(),
      };
      return { value: run, output: { report: accepted.payload, toolsExecuted: exploration.executed, toolsRefused: exploration.refused }, contextId: resultId };
    },
  );
}
