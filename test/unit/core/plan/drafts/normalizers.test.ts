import assert from 'node:assert/strict';
import { z } from 'zod';
import { jsonSchemaOf } from '../../../../../src/core/llm/structuredOutput';
import { discoveryReportRequest } from '../../../../../src/core/plan/drafts/discoveryReportRequest';
import { planningAgentRequest, planningCollectorRequest } from '../../../../../src/core/plan/drafts/planningRequest';
import { ticketAgentRequest } from '../../../../../src/core/plan/drafts/ticketAgentRequest';
import { ticketCollectorRequest } from '../../../../../src/core/plan/drafts/consolidationRequest';
import { discoveryReportSchema } from '../../../../../src/core/plan/schemas/discovery';
import { consolidationShape } from '../../../../../src/core/plan/schemas/consolidation';
import { ENUM_CAP } from '../../../../../src/core/plan/schemas/vocabulary';
import { discoveryReportDraft, planningCollectorDraft } from '../../../../support/pipelineScript';

const FILES = new Set(['src/app.ts', 'src/util/math.ts', 'lib/format.ts']);

/** Runs a normalizer and returns the fixed reply with its notes. */
function normalized(
  normalize: (reply: unknown, note: (change: string) => void) => unknown,
  reply: unknown,
): { value: unknown; notes: string[] } {
  const notes: string[] = [];
  const value = normalize(JSON.parse(JSON.stringify(reply)), change => notes.push(change));
  return { value, notes };
}

describe('draft normalizers: deterministic fixes before validation', () => {
  it('swaps a reversed line range of a file reference', () => {
    const draft = discoveryReportDraft();
    draft.fileReferences[0] = { ...draft.fileReferences[0]!, startLine: 9, endLine: 3 };
    const { value, notes } = normalized(discoveryReportRequest(FILES).normalize, draft);
    assert.ok(discoveryReportRequest(FILES).schema.safeParse(value).success);
    assert.deepEqual(notes, ['swapped the reversed range of src/app.ts 9-3']);
  });

  it('drops a diagram edge that names a node the diagram does not have, and notes it', () => {
    const diagram = {
      diagramId: 'd-1',
      diagramType: 'component',
      title: 'App',
      nodes: [{ nodeId: 'app', label: 'app' }],
      edges: [{ fromNodeId: 'app', toNodeId: '#' }],
    };
    const { value, notes } = normalized(discoveryReportRequest(FILES).normalize, {
      ...discoveryReportDraft(),
      diagrams: [diagram],
    });
    assert.ok(discoveryReportRequest(FILES).schema.safeParse(value).success);
    assert.deepEqual(notes, ['dropped the edge app -> # of diagram "d-1": it names a node the diagram does not have']);
  });

  it('drops a reference to a file that does not exist, then what cited it', () => {
    const draft = discoveryReportDraft();
    const missing = { ...draft.fileReferences[0]!, referenceId: 'ref-2', filePath: 'src/missing.ts' };
    const reply = {
      ...draft,
      fileReferences: [...draft.fileReferences, missing],
      crossLinks: [
        {
          linkId: 'l-1',
          sourceReferenceId: 'ref-1',
          targetReferenceId: 'ref-2',
          linkType: 'calls',
          description: 'calls',
        },
      ],
      relevanceScores: { 'src/app.ts': 0.9, 'src/missing.ts': 0.5 },
    };
    const { value, notes } = normalized(discoveryReportRequest(FILES).normalize, reply);
    assert.ok(discoveryReportRequest(FILES).schema.safeParse(value).success);
    assert.deepEqual(notes, [
      'dropped the reference to "src/missing.ts", which is not a workspace file it may cite',
      'dropped the cross link "l-1": it must join two different findings of the report',
      'dropped relevance score of "src/missing.ts" (not a file of fileReferences)',
    ]);
  });

  it("derives a report's relevanceScores, when absent, from its references: each cited file's best score", () => {
    const draft = discoveryReportDraft();
    const reference = draft.fileReferences[0]!;
    const { relevanceScores: _notAsked, ...reply } = {
      ...draft,
      fileReferences: [
        { ...reference, relevanceScore: 0.4 },
        { ...reference, referenceId: 'ref-2', startLine: 5, endLine: 6, relevanceScore: 0.7 },
        { ...reference, referenceId: 'ref-3', filePath: 'lib/format.ts', relevanceScore: 0.2 },
      ],
    };
    const { value, notes } = normalized(discoveryReportRequest(FILES).normalize, reply);
    const parsed = discoveryReportRequest(FILES).schema.parse(value);
    assert.deepEqual(parsed.relevanceScores, { 'src/app.ts': 0.7, 'lib/format.ts': 0.2 });
    assert.deepEqual(notes, [], 'filling what was not asked is no fix of the reply');
  });

  it("fills each collector input's type from its context id when absent (not asked), keeping one given", () => {
    const ids = [
      'wf-00000000-0000-4000-8000-000000000001/ticket-agent/3/2026-01-19T10:00:00.004Z',
      'wf-00000000-0000-4000-8000-000000000001/ticket-agent/4/2026-01-19T10:00:00.005Z',
    ];
    const request = ticketCollectorRequest({ inputIds: ids, agentIds: ['ticket-1', 'ticket-2'] });
    const reply = {
      inputs: [
        { inputContextId: ids[0], inputSummary: 'First.' },
        { inputContextId: ids[1], inputType: 'ticket-proposal', inputSummary: 'Second.' },
      ],
    };
    const { value } = normalized(request.normalize, reply);
    assert.deepEqual(
      (value as { inputs: { inputType?: string }[] }).inputs.map(input => input.inputType),
      ['ticket-agent', 'ticket-proposal'],
    );
  });

  it('gives finding ids repeated across kinds fresh ids, and retargets a tag left without a known target', () => {
    const draft = discoveryReportDraft();
    const tags = draft.semanticTags.map((tag, i) =>
      i === 0 ? { ...tag, tagId: 'ref-1', appliedTo: ['nowhere'] } : tag,
    );
    const { value, notes } = normalized(discoveryReportRequest(FILES).normalize, { ...draft, semanticTags: tags });
    assert.ok(discoveryReportRequest(FILES).schema.safeParse(value).success, JSON.stringify(value));
    assert.deepEqual(notes, [
      'renamed the repeated finding id "ref-1" to "ref-1-2"',
      'dropped unknown target of tag "ref-1-2" "nowhere"',
      'applied tag "ref-1-2", left without a known target, to "ref-1"',
    ]);
  });

  it('breaks a dependency cycle by dropping the edge that closes it', () => {
    const reply = planningCollectorDraft(
      ['x'],
      [
        ['T-1', 'T-2'],
        ['T-2', 'T-1'],
      ],
    );
    const request = planningCollectorRequest({
      inputIds: ['x'],
      agentIds: ['planning-1'],
      files: FILES,
      discoveryResultId: 'd',
    });
    const { value, notes } = normalized(request.normalize, reply);
    assert.deepEqual(
      (value as typeof reply).dependencyGraph.map(edge => [edge.fromTicketId, edge.toTicketId]),
      [['T-1', 'T-2']],
    );
    assert.deepEqual(
      notes.filter(n => n.includes('cycle')),
      ['dropped the dependency T-2 -> T-1, which closed the cycle T-1 -> T-2 -> T-1'],
    );
  });

  it("drops self-dependencies and breaks cycles among a planning agent's tickets", () => {
    const ticket = (id: string, deps: string[]) => ({ ticketId: id, dependencies: deps });
    const { value, notes } = normalized(planningAgentRequest({ files: FILES, discoveryResultId: 'd' }).normalize, {
      tickets: [ticket('A', ['A', 'C']), ticket('B', ['A']), ticket('C', ['B'])],
    });
    assert.deepEqual(
      (value as { tickets: { dependencies: string[] }[] }).tickets.map(t => t.dependencies),
      [[], ['A'], ['B']],
    );
    assert.deepEqual(notes, [
      'dropped the self-dependency of ticket "A"',
      'dropped the dependency C -> A, which closed the cycle A -> B -> C -> A',
    ]);
  });

  it('reads a proposal that contradicts the workspace as intended, and keeps one change per file', () => {
    const request = ticketAgentRequest({ files: FILES, ticketId: 'T-1' });
    const reply = {
      ticketId: 'T-9',
      implementationSummary: 'Do it.',
      implementationPlan: ['Edit.'],
      proposedChanges: [
        { kind: 'create', path: 'src/app.ts', content: 'new', rationale: 'Rewrite.' },
        { kind: 'modify', path: 'src/app.ts', edit: { mode: 'full_content', content: 'again' }, rationale: 'Twice.' },
        { kind: 'delete', path: 'src/gone.ts', rationale: 'Remove.' },
        {
          kind: 'modify',
          path: './lib\\format.ts',
          edit: {
            mode: 'replace_ranges',
            replacements: [
              { startLine: 5, endLine: 2, newText: '' },
              { startLine: 3, endLine: 4, newText: '' },
            ],
          },
          rationale: 'Trim.',
        },
      ],
      testPlan: [],
      verificationStatus: 'unverified',
    };
    const { value, notes } = normalized(request.normalize, reply);
    assert.ok(request.schema.safeParse(value).success, JSON.stringify(value));
    assert.deepEqual(notes, [
      'read ticketId "T-9" as the assigned "T-1"',
      'read the creation of existing file src/app.ts as a rewrite of it',
      'dropped a second change of src/app.ts: one change per file',
      'dropped the delete of src/gone.ts: not a file of the workspace',
      'read changed file "./lib\\format.ts" as "lib/format.ts"',
      'swapped the reversed range of lib/format.ts 5-2',
      'dropped the replacement of lines 3-4 of lib/format.ts: it overlaps an earlier one',
    ]);
  });
});

describe('draft schemas built per request', () => {
  it('list the workspace files, bounded line numbers and distinct tag targets in the JSON Schema', () => {
    const schema = JSON.stringify(jsonSchemaOf(discoveryReportRequest(FILES).schema));
    assert.match(schema, /"filePath":\{"type":"string","enum":\["lib\/format.ts","src\/app.ts","src\/util\/math.ts"\]/);
    assert.match(schema, /"startLine":\{"type":"integer","minimum":1,"maximum":1000000/);
    assert.match(
      schema,
      /"appliedTo":\{"minItems":1,"type":"array","items":\{[^}]*\},"description":"[^"]*Each item at most once\."/,
    );
    assert.match(
      schema,
      /"groundTruthRelevance":\{"type":"array","items":\{"type":"object","properties":\{"key":\{"type":"string","enum":\["lib\/format.ts"/,
    );
  });

  it('leave out what Council fills itself (relevanceScores, mermaidSource, inputType), which the published drafts keep', () => {
    const report = JSON.stringify(jsonSchemaOf(discoveryReportRequest(FILES).schema));
    assert.doesNotMatch(report, /relevanceScores|mermaidSource|notAsked/);
    const collector = JSON.stringify(
      jsonSchemaOf(ticketCollectorRequest({ inputIds: ['ctx-1'], agentIds: ['ticket-1'] }).schema),
    );
    assert.match(collector, /"inputSummary"/);
    assert.doesNotMatch(collector, /inputType|notAsked/);
    const published = JSON.stringify(z.toJSONSchema(discoveryReportSchema()));
    assert.match(published, /"relevanceScores":\{[^]*"notAsked":"Council derives it/);
  });

  it("are built once for the agents of a stage that share a vocabulary, and anew for another one's", () => {
    const files = new Set(FILES);
    assert.equal(discoveryReportRequest(files), discoveryReportRequest(files));
    assert.notEqual(discoveryReportRequest(files), discoveryReportRequest(new Set(['src/app.ts'])));
    const planning = planningAgentRequest({ files, discoveryResultId: 'ctx-a' });
    assert.equal(planningAgentRequest({ files, discoveryResultId: 'ctx-a' }), planning);
    const other = planningAgentRequest({ files, discoveryResultId: 'ctx-b' });
    assert.notEqual(other, planning);
    // Its one discovery result is not asked for: the request fills it into each link.
    assert.doesNotMatch(JSON.stringify(jsonSchemaOf(other.schema)), /ctx-b|discoveryResultId/);
    const reply = { tickets: [{ discoveryLinks: [{ referenceId: 'R-1', linkRationale: 'Why.' }] }] };
    assert.equal(
      (other.normalize(reply, () => undefined) as typeof reply & { tickets: { discoveryLinks: object[] }[] }).tickets[0]
        ?.discoveryLinks[0]?.['discoveryResultId' as keyof object],
      'ctx-b',
    );
  });

  it('describe the files instead of listing them past the cap', () => {
    const many = new Set(Array.from({ length: ENUM_CAP + 1 }, (_, i) => `src/f${i}.ts`));
    const schema = JSON.stringify(jsonSchemaOf(discoveryReportRequest(many).schema));
    assert.doesNotMatch(schema, /"enum":\["src\/f0.ts"/);
    assert.match(schema, /Must be an existing workspace file/);
  });

  it('offer a collector only the decisions open to it', () => {
    const discovery = JSON.stringify(
      jsonSchemaOf(consolidationShape('discovery', { inputIds: ['x'], agentIds: ['discovery-1'] }).decision),
    );
    assert.doesNotMatch(discovery, /route_back/);
    assert.match(discovery, /"enum":\["discovery-1"\]/);
    const tickets = JSON.stringify(
      jsonSchemaOf(consolidationShape('tickets', { inputIds: ['x'], agentIds: ['ticket-1'] }).decision),
    );
    assert.match(tickets, /"target":\{"type":"string","enum":\["discovery","planning"\]/);
  });
});
