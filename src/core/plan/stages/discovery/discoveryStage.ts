import { discoveryCollectorRequest, filesCitedBy } from '../../drafts/discoveryCollectorRequest';
import { DEFAULT_EXPLORATION_LIMITS } from '../../../workspace/explorationLoop';
import { discoveryReportRequest } from '../../drafts/discoveryReportRequest';
import { renderMessages } from '../../../llm/prompting/render';
import { DiscoveryAgentPrompt } from '../../prompts/discoveryAgentPrompt';
import { discoveryCollectorBrief } from '../../prompts/discoveryCollectorBrief';
import type { DiscoveryCollectorResult } from '../../schemas/collectors';
import type { AgentAssignment } from '../../schemas/delegation';
import { DiscoveryCollectorContext } from '../../schemas/curation';
import { DiscoveryReport } from '../../schemas/discovery';
import { citableFiles } from '../../schemas/vocabulary';
import { auditDiscoveryCuration, auditDiscoveryReport } from '../handoffAudit';
import { runStage } from '../stageDescriptor';
import type { StageEnvironment } from '../stageEnvironment';
import type { DiscoveryStageRecord } from '../stageRecords';
import { curateDiscovery } from './discoveryCuration';
import { delegateDiscovery } from './discoveryOrchestrator';

/**
 * Discovery: deterministic delegation by folder; agents explore their area with read-only tools and report; the
 * collector merges the reports into one code map, recommendations and query findings, and curates them for planning.
 */
export function discoveryStage(env: StageEnvironment) {
  const { template: delegation, sampleFiles } = delegateDiscovery(env);
  return runStage(env, {
    stage: 'discovery',
    agentType: 'discovery-agent',
    collectorType: 'discovery-collector',
    delegation,
    upstream: [],
    agent: (assignment: AgentAssignment) => ({
      action: 'discover',
      inputType: 'DiscoveryAgentRequest',
      input: (attemptNumber, previousContextId) => ({ assignment, attemptNumber, previousContextId }),
      recordedAs: 'report',
      name: 'discovery_report',
      schema: DiscoveryReport,
      description: 'Your discovery report on your area of the codebase.',
      // What it may cite: the sample files its prompt names, and every path its tools showed it.
      draftRequest: exploration =>
        discoveryReportRequest(
          citableFiles(env.index.visiblePaths, [
            ...(sampleFiles.get(assignment.agentId) ?? []),
            ...(exploration?.seen ?? []),
          ]),
        ),
      explores: DEFAULT_EXPLORATION_LIMITS,
      prompt: inputs => renderMessages(DiscoveryAgentPrompt, { assignment, ...inputs }, env.model, env.token),
      complete: (draft, stamp) => ({ ...stamp, ...draft }),
      audit: auditDiscoveryReport,
    }),
    collector: {
      inputType: 'DiscoveryCollectorRequest',
      inputName: 'reports',
      name: 'discovery_collector_result',
      schema: DiscoveryCollectorContext,
      description: 'The consolidation of the discovery reports, with your decision.',
      draftRequest: (vocabulary, runs) =>
        discoveryCollectorRequest({
          ...vocabulary,
          // A collector has no tools: it may cite what the reports cite.
          files: citableFiles(
            env.index.visiblePaths,
            runs.flatMap(run => filesCitedBy(run.result)),
          ),
          queryIds: runs.flatMap(run => run.result.generatedQueries.map(query => query.queryId)),
        }),
      brief: discoveryCollectorBrief,
      curate: curateDiscovery,
      result: (stamped, curated): DiscoveryCollectorResult => ({ ...stamped, discoveryCuration: curated }),
      audit: auditDiscoveryCuration,
    },
    record: ({ agentResults: reports, ...kept }): DiscoveryStageRecord => ({
      stage: 'discovery',
      delegation,
      reports,
      ...kept,
    }),
  });
}
