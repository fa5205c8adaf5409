/** Valid pipeline payloads for tests; each test breaks one rule on a fresh copy. */
import { type AgentType } from '../../../../../src/core/plan/schemas/agentType';
import {
  type DiscoveryCollectorResult,
  type PlanningCollectorResult,
  type TicketCollectorResult,
} from '../../../../../src/core/plan/schemas/collectors';
import { type ConsolidationSummary } from '../../../../../src/core/plan/schemas/consolidation';
import { formatContextId } from '../../../../../src/core/plan/schemas/contextId';
import { type DiscoveryCollectorContext } from '../../../../../src/core/plan/schemas/curation';
import { type DelegationTemplate } from '../../../../../src/core/plan/schemas/delegation';
import { type DiscoveryReport, type FileReference } from '../../../../../src/core/plan/schemas/discovery';
import { type PlanningAgentResult, type PlanningTicket } from '../../../../../src/core/plan/schemas/planning';
import { type TicketAgentResult } from '../../../../../src/core/plan/schemas/tickets';
import { SCHEMA_VERSION } from '../../../../../src/core/plan/schemas/version';

type SemanticTag = DiscoveryReport['semanticTags'][number];
type CodeMap = DiscoveryCollectorResult['unifiedCodeMap'];

export const RUN = 'wf-3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b';
export const AT = '2026-01-19T10:00:00.000Z';

/** A valid context id for `agentType` in the test run. */
export function idOf(agentType: AgentType, sequenceNumber = 1): string {
  return formatContextId({ workflowRunId: RUN, agentType, sequenceNumber, timestamp: AT });
}

export function fileReference(referenceId = 'ref-1', filePath = 'src/app/main.ts'): FileReference {
  return {
    referenceId,
    filePath,
    startLine: 3,
    endLine: 9,
    relevanceScore: 0.8,
    snippet: 'export function main() {}',
    tags: [],
  };
}

export function tag(tagId: string, appliedTo: string[] = ['ref-1']): SemanticTag {
  return { tagId, tagName: `name-${tagId}`, tagCategory: 'architecture', confidence: 0.7, appliedTo };
}

export function discoveryReport(): DiscoveryReport {
  return {
    schemaVersion: SCHEMA_VERSION,
    resultId: idOf('discovery-agent'),
    upstreamContextId: idOf('discovery-orchestrator'),
    architectureOverview: 'A CLI entry point calling a small service layer.',
    fileReferences: [fileReference('ref-1'), fileReference('ref-2', 'src/app/service.ts')],
    crossLinks: [
      {
        linkId: 'link-1',
        sourceReferenceId: 'ref-1',
        targetReferenceId: 'ref-2',
        linkType: 'calls',
        description: 'main calls the service',
      },
    ],
    semanticTags: ['tag-1', 'tag-2', 'tag-3', 'tag-4', 'tag-5'].map(id => tag(id)),
    generatedQueries: ['q-1', 'q-2', 'q-3'].map(queryId => ({
      queryId,
      queryText: `where is ${queryId}?`,
      expectedResultPaths: ['src/app/main.ts'],
      queryType: 'code_search' as const,
      groundTruthRelevance: { 'src/app/main.ts': 0.9 },
    })),
    diagrams: [
      {
        diagramId: 'd-1',
        diagramType: 'component',
        title: 'App',
        nodes: [
          { nodeId: 'n-main', label: 'main', filePath: 'src/app/main.ts' },
          { nodeId: 'n-service', label: 'service' },
        ],
        edges: [{ fromNodeId: 'n-main', toNodeId: 'n-service', label: 'calls' }],
      },
    ],
    keyPatterns: ['service layer'],
    integrationPoints: [],
    relevanceScores: { 'src/app/main.ts': 0.9, 'src/app/service.ts': 0.6 },
  };
}

export function codeMap(): CodeMap {
  const report = discoveryReport();
  return {
    modules: [{ moduleName: 'app', rootPath: 'src/app', summary: 'The application.', keyFiles: ['src/app/main.ts'] }],
    deduplicatedReferences: report.fileReferences,
    unifiedDiagram: report.diagrams[0]!,
    mergedTags: report.semanticTags,
  };
}

export function consolidationSummary(): ConsolidationSummary {
  return {
    inputs: [],
    mergeStrategy: 'union of findings',
    conflictResolutions: [],
    aggregatedMetrics: {},
    consolidatedOutput: 'Summary.',
    decision: { kind: 'advance', rationale: 'complete' },
    upstreamContextChain: [idOf('orchestrator')],
    metadata: {},
  };
}

export function discoveryCollectorContext(sourceResultId = idOf('discovery-collector')): DiscoveryCollectorContext {
  return {
    contextId: idOf('discovery-collector', 2),
    sourceResultId,
    selectionRationale: 'What planning needs.',
    curation: {
      discoveryReports: [discoveryReport()],
      unifiedCodeMap: codeMap(),
      recommendations: [],
      queryFindings: [],
      consolidationSummary: consolidationSummary(),
    },
  };
}

export function discoveryCollectorResult(): DiscoveryCollectorResult {
  const resultId = idOf('discovery-collector');
  return {
    schemaVersion: SCHEMA_VERSION,
    resultId,
    upstreamContextChain: [idOf('orchestrator'), idOf('discovery-orchestrator')],
    metadata: {},
    inputs: [
      { inputContextId: idOf('discovery-agent', 1), inputType: 'discovery-report', inputSummary: 'app module' },
      { inputContextId: idOf('discovery-agent', 2), inputType: 'discovery-report', inputSummary: 'tests' },
    ],
    mergeStrategy: 'union, deduplicated by location',
    conflictResolutions: [
      {
        conflictDescription: 'entry point disagreement',
        resolutionApproach: 'kept main.ts',
        conflictingInputs: [idOf('discovery-agent', 1), idOf('discovery-agent', 2)],
      },
    ],
    aggregatedMetrics: { filesCovered: 2 },
    consolidatedOutput: 'The app is a CLI.',
    decision: { kind: 'advance', rationale: 'enough to plan' },
    unifiedCodeMap: codeMap(),
    recommendations: [
      {
        recommendationId: 'rec-1',
        title: 'Add validation',
        description: 'Validate inputs in main.',
        priority: 'high',
        supportingDiscoveryIds: [idOf('discovery-agent', 1)],
        relatedFilePaths: ['src/app/main.ts'],
      },
    ],
    queryFindings: [
      {
        queryId: 'q-1',
        originalQuery: 'where is q-1?',
        results: [fileReference()],
        confidenceScore: 0.5,
        summary: 'found',
      },
    ],
    discoveryCuration: discoveryCollectorContext(resultId),
  };
}

export function ticket(ticketId: string, dependencies: string[] = []): PlanningTicket {
  return {
    ticketId,
    title: `Ticket ${ticketId}`,
    description: 'Do the thing.',
    tasks: [
      { taskId: `${ticketId}.1`, description: 'Edit main', estimatedHours: 1, relatedFiles: ['src/app/main.ts'] },
    ],
    dependencies,
    acceptanceCriteria: ['main validates input'],
    discoveryLinks: [
      { discoveryResultId: idOf('discovery-collector'), referenceId: 'ref-1', linkRationale: 'entry point' },
    ],
    priority: 2,
  };
}

export function planningAgentResult(): PlanningAgentResult {
  return {
    schemaVersion: SCHEMA_VERSION,
    resultId: idOf('planning-agent'),
    upstreamContextId: idOf('planning-orchestrator'),
    discoveryResultId: idOf('discovery-collector'),
    tickets: [ticket('T-1'), ticket('T-2', ['T-1'])],
  };
}

export function planningCollectorResult(): PlanningCollectorResult {
  const resultId = idOf('planning-collector');
  return {
    schemaVersion: SCHEMA_VERSION,
    resultId,
    upstreamContextChain: [idOf('orchestrator')],
    metadata: {},
    inputs: [
      { inputContextId: idOf('planning-agent'), inputType: 'planning-agent-result', inputSummary: 'two tickets' },
    ],
    mergeStrategy: 'kept all',
    conflictResolutions: [],
    aggregatedMetrics: {},
    consolidatedOutput: 'Two tickets.',
    decision: { kind: 'advance', rationale: 'ready' },
    finalizedTickets: [ticket('T-1'), ticket('T-2', ['T-1']), ticket('T-3')],
    dependencyGraph: [{ fromTicketId: 'T-2', toTicketId: 'T-3', dependencyType: 'blocks' }],
    discoveryResultId: idOf('discovery-collector'),
    planningCuration: {
      contextId: idOf('planning-collector', 2),
      sourceResultId: resultId,
      selectionRationale: 'All tickets.',
      curation: {
        planningAgentResults: [planningAgentResult()],
        finalizedTickets: [ticket('T-1')],
        dependencyGraph: [],
        discoveryResultId: idOf('discovery-collector'),
        consolidationSummary: consolidationSummary(),
      },
    },
  };
}

export function ticketAgentResult(): TicketAgentResult {
  return {
    schemaVersion: SCHEMA_VERSION,
    resultId: idOf('ticket-agent'),
    upstreamContextId: idOf('ticket-orchestrator'),
    discoveryResultId: idOf('discovery-collector'),
    ticketId: 'T-1',
    implementationSummary: 'Adds validation.',
    implementationPlan: ['Add a validator', 'Call it from main'],
    proposedChanges: [
      { kind: 'create', path: 'src/app/validate.ts', content: 'export const ok = true;\n', rationale: 'new validator' },
      {
        kind: 'modify',
        path: 'src/app/main.ts',
        edit: { mode: 'replace_ranges', replacements: [{ startLine: 3, endLine: 4, newText: 'validate();' }] },
        rationale: 'call it',
      },
      { kind: 'delete', path: 'src/app/old.ts', rationale: 'unused' },
    ],
    testPlan: ['unit test validate()'],
    verificationStatus: 'verified',
    upstreamContextChain: [idOf('orchestrator')],
  };
}

export function ticketCollectorResult(): TicketCollectorResult {
  const resultId = idOf('ticket-collector');
  return {
    schemaVersion: SCHEMA_VERSION,
    resultId,
    upstreamContextChain: [idOf('orchestrator')],
    metadata: {},
    inputs: [{ inputContextId: idOf('ticket-agent'), inputType: 'ticket-agent-result', inputSummary: 'T-1 done' }],
    mergeStrategy: 'one result per ticket',
    conflictResolutions: [],
    aggregatedMetrics: {},
    consolidatedOutput: 'T-1 proposed.',
    decision: { kind: 'advance', rationale: 'done' },
    completionStatus: 'complete',
    followUps: [],
    ticketCuration: {
      contextId: idOf('ticket-collector', 2),
      sourceResultId: resultId,
      selectionRationale: 'All results.',
      curation: {
        ticketAgentResults: [ticketAgentResult()],
        completionStatus: 'complete',
        followUps: [],
        consolidationSummary: consolidationSummary(),
      },
    },
  };
}

export function delegationTemplate(): DelegationTemplate {
  return {
    schemaVersion: SCHEMA_VERSION,
    resultId: idOf('discovery-orchestrator'),
    upstreamContextId: idOf('orchestrator'),
    goal: 'Understand the app',
    delegationRationale: 'One agent per module.',
    assignments: [
      {
        agentId: 'discovery-1',
        agentType: 'discovery-agent',
        assignedGoal: 'Map src/app',
        subdomainFocus: 'app',
        contextToPass: {},
      },
      {
        agentId: 'discovery-2',
        agentType: 'discovery-agent',
        assignedGoal: 'Map tests',
        contextToPass: { root: 'test' },
      },
    ],
    contextSelections: [
      {
        selectionId: 'sel-1',
        sourceContextId: idOf('orchestrator'),
        selectedContent: 'goal',
        selectionRationale: 'needed',
      },
    ],
    metadata: {},
  };
}
