import { DiscoveryAgentPrompt } from '../../prompts/discoveryAgentPrompt';
import { discoveryReportRequest } from '../../drafts/discoveryReportRequest';
import { DiscoveryReport } from '../../schemas/discovery';
import type { AgentAssignment, DelegationTemplate } from '../../schemas/delegation';
import { SCHEMA_VERSION } from '../../schemas/version';
import { exploreThenReport } from '../exploreThenReport';
import type { AgentRun, RerunInput } from '../previousAttempt';
import { runStageAgent } from '../stageAgent';
import type { ChainPosition } from '../stageCollector';
import type { StageEnvironment } from '../stageEnvironment';

/** Runs one discovery agent: explore with read-only tools, report, hand the report to the collector. */
export function runDiscoveryAgent(
  env: StageEnvironment,
  delegation: DelegationTemplate,
  assignment: AgentAssignment,
  chain: ChainPosition,
  routeBackFeedback: string | undefined,
  rerun?: RerunInput<DiscoveryReport>,
): Promise<AgentRun<DiscoveryReport>> {
  return runStageAgent(
    env,
    {
      stage: 'discovery',
      agentType: 'discovery-agent',
      action: 'discover',
      inputType: 'DiscoveryAgentRequest',
      input: (attemptNumber, previousContextId) => ({ assignment, attemptNumber, previousContextId }),
      upstreamContextIds: [delegation.resultId],
      collector: { agentId: 'discovery-collector', agentType: 'discovery-collector' },
      payloadName: 'discovery-report',
      schema: DiscoveryReport,
      recordedAs: 'report',
      name: 'discovery_report',
      description: 'Your discovery report on your area of the codebase.',
      draftRequest: discoveryReportRequest(env.index.visiblePaths),
      prompt: (parts, meter) =>
        exploreThenReport(
          env,
          DiscoveryAgentPrompt,
          {
            goal: env.goal,
            constraints: env.constraints,
            assignment,
            ...parts,
            ...(routeBackFeedback === undefined ? {} : { routeBackFeedback }),
          },
          env.options.discoveryExploration,
          meter,
        ),
      complete: (draft, resultId) => ({
        schemaVersion: SCHEMA_VERSION,
        resultId,
        upstreamContextId: delegation.resultId,
        ...draft,
      }),
    },
    assignment,
    chain,
    rerun,
  );
}
