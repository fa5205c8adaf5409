import type { Clock, IdSource } from '../../src/core/clock';
import type { ChatMessage, ModelRequest } from '../../src/core/llm/languageModel';
import { messageText } from '../../src/core/llm/usage';
import type { CollectorDecision } from '../../src/core/plan/schemas/consolidation';
import { InMemoryWorkspaceReader } from './inMemoryWorkspaceReader';
import {
  ScriptedModel,
  replyByTool,
  toolCallReply,
  valueReply,
  type Route,
  type ScriptedModelOptions,
  type ScriptedReply,
} from './scriptedModel';

/** A small workspace with code, docs, and files agents must never see. */
export const FIXTURE_FILES: Readonly<Record<string, string>> = {
  'src/app.ts': [
    'import { add } from "./util/math";',
    'export function main(): number {',
    '  return add(1, 2);',
    '}',
  ].join('\n'),
  'src/util/math.ts': ['export function add(a: number, b: number): number {', '  return a + b;', '}'].join('\n'),
  'lib/format.ts': ['export function format(n: number): string {', '  return n.toFixed(2);', '}'].join('\n'),
  'docs/readme.md': '# Fixture\nA tiny app that adds numbers.',
  'node_modules/left-pad/index.js': 'module.exports = () => {};',
  'dist/app.js': 'compiled',
  'assets/logo.png': '\u0000PNG',
};

/** Ids `00000000-0000-4000-8000-000000000001`, … (valid UUIDs, deterministic). */
export function counterIds(): IdSource {
  let n = 0;
  return { next: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
}

/** A clock that advances one millisecond per reading. */
export function steppingClock(start = Date.parse('2026-01-19T10:00:00.000Z')): Clock {
  let t = start;
  return { now: () => new Date(t++).toISOString() };
}

/** A fresh run's id (`wf-…` from `ids`). */
export function newRunId(ids: IdSource): string {
  return `wf-${ids.next()}`;
}

/** All text of a request. */
export function requestText(request: { readonly messages: readonly ChatMessage[] }): string {
  return request.messages.map(messageText).join('\n');
}

/** The resultIds the prompt lists (collector prompts name each input's resultId). */
export function resultIdsIn(request: ModelRequest): string[] {
  return [...new Set([...requestText(request).matchAll(/resultId ((?:wf|run)-[^\s)]+)/g)].map(m => m[1] ?? ''))];
}

/** The agent id a prompt addresses ("You are discovery agent discovery-2 …"). */
export function agentIdIn(request: ModelRequest): string {
  return /You are \w+ agent ([\w-]+)/.exec(requestText(request))?.[1] ?? 'unknown';
}

const TAGS = ['entry-point', 'arithmetic', 'module-boundary', 'pure-function', 'tests-missing'].map((name, i) => ({
  tagId: `tag-${i + 1}`,
  tagName: name,
  tagCategory: 'architecture',
  confidence: 0.8,
  appliedTo: ['ref-1'],
}));

/** A valid discovery report draft citing `path`. */
export function discoveryReportDraft(path = 'src/app.ts', overview = 'The app entry point calls a math helper.') {
  return {
    architectureOverview: overview,
    fileReferences: [
      {
        referenceId: 'ref-1',
        filePath: path,
        startLine: 1,
        endLine: 3,
        relevanceScore: 0.9,
        snippet: 'export function main()',
        tags: [],
      },
    ],
    crossLinks: [],
    semanticTags: TAGS,
    generatedQueries: [1, 2, 3].map(i => ({
      queryId: `q-${i}`,
      queryText: `Where is addition ${i}?`,
      expectedResultPaths: [path],
      queryType: 'code_search',
      groundTruthRelevance: { [path]: 0.9 },
    })),
    diagrams: [],
    keyPatterns: ['pure functions'],
    integrationPoints: [],
    relevanceScores: { [path]: 0.9 },
  };
}

const advance: CollectorDecision = { kind: 'advance', rationale: 'Good enough.' };

function consolidation(inputIds: readonly string[], decision: CollectorDecision) {
  return {
    inputs: inputIds.map(id => ({ inputContextId: id, inputType: 'agent-result', inputSummary: 'An agent result.' })),
    mergeStrategy: 'Union, deduplicated by location.',
    conflictResolutions: [],
    aggregatedMetrics: { inputs: inputIds.length },
    consolidatedOutput: 'Consolidated.',
    decision,
  };
}

/** A valid discovery collector draft over the reports named in the prompt. */
export function discoveryCollectorDraft(inputIds: readonly string[], decision: CollectorDecision = advance) {
  return {
    ...consolidation(inputIds, decision),
    unifiedCodeMap: {
      modules: [{ moduleName: 'app', rootPath: 'src', summary: 'The app.', keyFiles: ['src/app.ts'] }],
      deduplicatedReferences: [
        {
          referenceId: 'ref-1',
          filePath: 'src/app.ts',
          startLine: 1,
          endLine: 3,
          relevanceScore: 0.9,
          snippet: 'export function main()',
          tags: [],
        },
      ],
      unifiedDiagram: {
        diagramId: 'd-1',
        diagramType: 'component',
        title: 'App',
        nodes: [
          { nodeId: 'app', label: 'app', filePath: 'src/app.ts' },
          { nodeId: 'math', label: 'math', filePath: 'src/util/math.ts' },
        ],
        edges: [{ fromNodeId: 'app', toNodeId: 'math', label: 'calls' }],
      },
      mergedTags: TAGS.slice(0, 1),
    },
    recommendations: [
      {
        recommendationId: 'R-1',
        title: 'Add subtraction',
        description: 'Add a subtract helper.',
        priority: 'high',
        supportingDiscoveryIds: inputIds.slice(0, 1),
        relatedFilePaths: ['src/util/math.ts'],
      },
      {
        recommendationId: 'R-2',
        title: 'Format output',
        description: 'Format the result.',
        priority: 'medium',
        supportingDiscoveryIds: inputIds.slice(0, 1),
        relatedFilePaths: ['lib/format.ts'],
      },
    ],
    queryFindings: [],
  };
}

function ticket(id: string, dependencies: readonly string[] = [], file = 'src/util/math.ts') {
  return {
    ticketId: id,
    title: `Ticket ${id}`,
    description: `Do ${id}.`,
    tasks: [{ taskId: `${id}-a`, description: 'Change the code.', relatedFiles: [file] }],
    dependencies: [...dependencies],
    acceptanceCriteria: ['Tests pass.'],
    discoveryLinks: [],
    priority: 2,
  };
}

/** A planning agent draft with two tickets, the second depending on the first. */
export function planningAgentDraft(prefix = 'P1-T') {
  return { tickets: [ticket(`${prefix}1`), ticket(`${prefix}2`, [`${prefix}1`])] };
}

/** A planning collector draft; `edges` are [from, to] pairs. */
export function planningCollectorDraft(
  inputIds: readonly string[],
  edges: readonly (readonly [string, string])[] = [['T-1', 'T-2']],
  decision: CollectorDecision = advance,
) {
  return {
    ...consolidation(inputIds, decision),
    finalizedTickets: [ticket('T-1'), ticket('T-2', [], 'lib/format.ts')],
    dependencyGraph: edges.map(([from, to]) => ({ fromTicketId: from, toTicketId: to, dependencyType: 'blocks' })),
  };
}

/** A ticket agent draft proposing one modification of `path`. */
export function ticketAgentDraft(ticketId: string, path = 'src/util/math.ts') {
  return {
    ticketId,
    implementationSummary: `Implement ${ticketId}.`,
    implementationPlan: ['Edit the helper.', 'Add a test.'],
    proposedChanges: [
      {
        kind: 'modify',
        path,
        edit: {
          mode: 'replace_ranges',
          replacements: [{ startLine: 2, endLine: 2, newText: '  return a + b; // checked' }],
        },
        rationale: 'Clarify.',
      },
      { kind: 'create', path: `test/${ticketId}.test.ts`, content: 'it("works", () => {});\n', rationale: 'Cover it.' },
    ],
    testPlan: ['npm test'],
    verificationStatus: 'verified',
  };
}

/** A ticket collector draft. */
export function ticketCollectorDraft(inputIds: readonly string[], decision: CollectorDecision = advance) {
  return { ...consolidation(inputIds, decision), completionStatus: 'complete', followUps: ['Run the tests.'] };
}

/** The ticket id a ticket agent prompt is about. */
export function ticketIdIn(request: ModelRequest): string {
  return /your ticket is ([\w-]+)\./.exec(requestText(request))?.[1] ?? 'T-1';
}

/** Exploration turns: list files once, then stop. The context manager's investigation: stop at once. */
export const exploreOnceThenStop: Route = (request: ModelRequest): ScriptedReply => {
  if (request.tools?.some(tool => tool.name.startsWith('history_'))) return 'Nothing more to look up.';
  const last = request.messages[request.messages.length - 1];
  const answered =
    last !== undefined && typeof last.content !== 'string' && last.content.some(part => part.kind === 'toolResult');
  return answered
    ? 'I know enough.'
    : toolCallReply('read_file_range', { path: 'src/app.ts', startLine: 1, endLine: 10 });
};

/** Routes for a run where every agent does its job and every collector advances. */
export function happyRoutes(): Record<string, Route> {
  return {
    discovery_report: valueReply(discoveryReportDraft()),
    discovery_collector_result: request => valueReply(discoveryCollectorDraft(resultIdsIn(request))),
    planning_agent_result: request =>
      valueReply(planningAgentDraft(/ids "([\w-]+)1"/.exec(requestText(request))?.[1] ?? 'P1-T')),
    planning_collector_result: request => valueReply(planningCollectorDraft(resultIdsIn(request))),
    ticket_agent_result: request => valueReply(ticketAgentDraft(ticketIdIn(request))),
    ticket_collector_result: request => valueReply(ticketCollectorDraft(resultIdsIn(request))),
  };
}

/** A scripted pipeline model: the happy routes with `overrides` on top. */
export function pipelineModel(
  overrides: Record<string, Route> = {},
  options: ScriptedModelOptions = {},
  fallback: Route = exploreOnceThenStop,
): ScriptedModel {
  return new ScriptedModel(replyByTool({ ...happyRoutes(), ...overrides }, fallback), options);
}

/** The fixture workspace reader. */
export function fixtureReader(extra: Readonly<Record<string, string>> = {}): InMemoryWorkspaceReader {
  return new InMemoryWorkspaceReader({ ...FIXTURE_FILES, ...extra });
}
