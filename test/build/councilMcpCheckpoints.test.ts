import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { readStoredWorkflowRun, type StoredWorkflowRun } from '../../src/core/deepWork/storedWorkflowRun';
import { buildCouncilCli, COUNCIL_BUNDLE } from '../support/buildCouncilCli';
import { FIXTURE_FILES } from '../support/pipelineScript';

/*
 * `council_plan`'s checkpoints over the built `council mcp --demo`, driven by the MCP SDK's own Client over stdio: a
 * client that shows forms gets each checkpoint as an elicitation and the run goes on in the same call (accepted),
 * stays paused with the calls that go on (declined), or stops there, saved (cancelled); a client without elicitation
 * gets the checkpoint's choices as next calls, as before.
 */

type Answer = (form: ElicitRequestFormParams) => ElicitResult;

function fixtureProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'council-mcp-checkpoints-'));
  for (const [path, text] of Object.entries(FIXTURE_FILES)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  return project;
}

function textOf(result: unknown): string {
  return (result as CallToolResult).content.map(part => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The one run stored in the project. */
function storedRun(project: string): StoredWorkflowRun {
  const runs = join(project, '.council', 'runs');
  const [file, ...more] = readdirSync(runs).filter(name => name.endsWith('.json'));
  assert.equal(more.length, 0, 'one run');
  const read = readStoredWorkflowRun(JSON.parse(readFileSync(join(runs, file ?? ''), 'utf8')) as unknown);
  assert.ok(read.kind === 'current', read.kind);
  return read.value;
}

const requestsOf = (run: StoredWorkflowRun) => run.state.spending.reduce((sum, line) => sum + line.requests, 0);

describe('council_plan checkpoints by elicitation over the built MCP server', function () {
  this.timeout(60_000);
  let project: string;
  let client: Client | undefined;
  before(buildCouncilCli);
  beforeEach(() => {
    project = fixtureProject();
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    rmSync(project, { recursive: true, force: true });
  });

  /** Connects a client; with `answer`, one that shows forms (`elicitation: {}`, form mode) and records each form. */
  async function connect(
    answer?: Answer,
    capabilities: ClientCapabilities = answer ? { elicitation: {} } : {},
  ): Promise<ElicitRequestFormParams[]> {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env))
      if (value !== undefined && !/_API_KEY$/.test(key)) env[key] = value;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [COUNCIL_BUNDLE, 'mcp', '--demo'],
      cwd: project,
      env,
      stderr: 'pipe',
    });
    client = new Client({ name: 'council-test', version: '1.0.0' }, { capabilities });
    const forms: ElicitRequestFormParams[] = [];
    if (answer && capabilities.elicitation)
      client.setRequestHandler(ElicitRequestSchema, request => {
        const form = request.params as ElicitRequestFormParams;
        forms.push(form);
        return answer(form);
      });
    await client.connect(transport);
    return forms;
  }

  it('accepted: each checkpoint is a form, the run goes on in the same call (a redo with feedback included)', async () => {
    const answers: ElicitResult[] = [
      { action: 'accept', content: { choice: 'Continue' } },
      { action: 'accept', content: { choice: 'Redo stage', feedback: 'Keep each ticket to one module.' } },
      { action: 'accept', content: { choice: 'Continue' } },
    ];
    const forms = await connect(() => answers.shift() ?? { action: 'decline' });
    const result = await client!.callTool({ name: 'council_plan', arguments: { goal: 'Add subtraction' } });
    const text = textOf(result);
    assert.equal(result.isError, undefined, text);
    assert.deepEqual(
      forms.map(form => /Checkpoint after (\w+)/.exec(form.message)?.[1]),
      ['Discovery', 'Planning', 'Planning'],
      'one form per checkpoint; planning is asked again after its redo',
    );
    const choice = forms[0]?.requestedSchema.properties['choice'];
    assert.deepEqual(choice && 'enum' in choice ? choice.enum : undefined, [
      'Continue',
      'Redo stage',
      'Skip next stage',
      'Abort',
    ]);
    assert.equal(choice && 'default' in choice ? choice.default : undefined, 'Continue');
    assert.ok(forms[0]?.requestedSchema.properties['feedback'], 'a field for what to change');
    assert.match(forms[0]?.message ?? '', /So far: \d+ requests? · /, 'the form shows what the run has spent');
    assert.match(text, /The plan is complete/);
    assert.match(
      text,
      /after discovery: Continue\n- after planning: Redo stage \("Keep each ticket to one module\."\)/,
    );
    assert.doesNotMatch(text, /"option":/, 'no next calls: the run is complete');
    const run = storedRun(project);
    assert.equal(run.status, 'completed');
    assert.match(text, new RegExp(`The plan is complete \\(${requestsOf(run)} requests`), 'the ledger is the count');
  });

  it('declined: the run stays paused at the checkpoint, spends nothing more, and the result gives the calls', async () => {
    const forms = await connect(() => ({ action: 'decline' }));
    const text = textOf(await client!.callTool({ name: 'council_plan', arguments: { goal: 'Add subtraction' } }));
    assert.equal(forms.length, 1);
    assert.match(text, /Checkpoint after Discovery/);
    assert.match(text, /declined to choose at this checkpoint: the run stays paused/);
    const runId = /"runId":"(wf-[\w-]+)","option":1/.exec(text)?.[1];
    assert.ok(runId, `the next calls name the run: ${text}`);
    const run = storedRun(project);
    assert.equal(run.status, 'paused');
    assert.equal(run.state.pendingCheckpoint?.phase, 'discovery');
    assert.match(text, new RegExp(`So far: ${requestsOf(run)} requests`), 'nothing spent after the checkpoint');
  });

  it('cancelled: the run stops at the checkpoint, saved, and the agent is told not to go on unasked', async () => {
    const forms = await connect(() => ({ action: 'cancel' }));
    const text = textOf(await client!.callTool({ name: 'council_plan', arguments: { goal: 'Add subtraction' } }));
    assert.equal(forms.length, 1);
    assert.match(text, /cancelled at this checkpoint: the run stopped spending and is saved/);
    assert.match(text, /Do not go on unless the user asks/);
    const run = storedRun(project);
    assert.equal(run.status, 'paused');
    assert.equal(run.state.pendingCheckpoint?.phase, 'discovery');
    assert.ok(!run.state.context.phases.completed.includes('planning'), 'planning never ran');
  });

  for (const [client_, capabilities] of [
    ['a client without elicitation', {}],
    ['a client with URL-mode elicitation only', { elicitation: { url: {} } }],
  ] as const)
    it(`${client_} gets the checkpoint as next calls, as before`, async () => {
      const forms = await connect(() => ({ action: 'accept', content: { choice: 'Continue' } }), capabilities);
      const text = textOf(await client!.callTool({ name: 'council_plan', arguments: { goal: 'Add subtraction' } }));
      assert.equal(forms.length, 0, 'no form was sent');
      assert.match(text, /Checkpoint after Discovery/);
      assert.doesNotMatch(text, /Asked the user|declined|cancelled|could not be put/);
      const runId = /"runId":"(wf-[\w-]+)","option":1/.exec(text)?.[1];
      assert.ok(runId, text);
      const next = textOf(await client!.callTool({ name: 'council_plan', arguments: { runId, option: 1 } }));
      assert.match(next, /Checkpoint after Planning/);
    });

  it("council_open: a URL-only client gets the questions with their ids (it cannot show the question's form)", async () => {
    const forms = await connect(() => ({ action: 'accept', content: {} }), { elicitation: { url: {} } });
    const result = await client!.callTool({ name: 'council_open', arguments: { question: 'Redis or JWT sessions?' } });
    assert.equal(result.isError, undefined, textOf(result));
    assert.equal(forms.length, 0);
    assert.match(textOf(result), /\[questionId: [^\]]+\]/);
  });

  it("council_workflow: a project workflow's checkpoint is a form too, and Continue runs its next phase", async () => {
    mkdirSync(join(project, '.council', 'workflows'), { recursive: true });
    writeFileSync(
      join(project, '.council', 'workflows', 'notes.yaml'),
      [
        'name: notes',
        'description: Writes the goal down, then a summary after a checkpoint (scripts, no model).',
        'phases:',
        '  - id: write',
        '    name: Write',
        '    description: Write the goal down.',
        '    behavior: main-only',
        '    main_agent:',
        '      script: |',
        "        await writeFile('notes.md', 'Goal: ' + context.goal);",
        '    checkpoint:',
        '      prompt: "The notes are written. Go on to the summary?"',
        '      options:',
        '        - label: Continue',
        '          on_select: { action: continue }',
        '        - label: Abort',
        '          on_select: { action: abort }',
        '  - id: summary',
        '    name: Summary',
        '    description: Write a summary.',
        '    behavior: main-only',
        '    main_agent:',
        '      script: |',
        "        await writeFile('summary.md', 'Done');",
        '',
      ].join('\n'),
    );
    const forms = await connect(() => ({ action: 'accept', content: { choice: 'Continue' } }));
    const result = await client!.callTool({
      name: 'council_workflow',
      arguments: { workflow: 'notes', goal: 'Ship the release notes' },
    });
    const text = textOf(result);
    assert.equal(result.isError, undefined, text);
    assert.equal(forms.length, 1);
    assert.match(forms[0]?.message ?? '', /The notes are written/);
    assert.equal(forms[0]?.requestedSchema.properties['feedback'], undefined, 'no option takes feedback');
    assert.match(text, /notes is complete/);
    const run = storedRun(project);
    assert.equal(run.status, 'completed');
    assert.equal(readFileSync(join(project, run.state.context.output_dir ?? '', 'summary.md'), 'utf8'), 'Done');
  });
});
