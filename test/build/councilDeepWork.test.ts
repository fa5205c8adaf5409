import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DeepWorkResult } from '../../src/cli/deepWork/deepWorkRun';
import { readStoredWorkflowRun } from '../../src/core/deepWork/storedWorkflowRun';
import { TmuxTerminal } from '../support/tmuxTerminal';
import { buildCouncilCli, COUNCIL_BUNDLE } from '../support/buildCouncilCli';
import { FIXTURE_FILES, pipelineModel } from '../support/pipelineScript';
import { serveScriptedModel, type ScriptedEndpoint } from '../support/scriptedOpenAiServer';

/*
 * Deep work through the built `council` command and its MCP server, on a fixture folder, against a scripted
 * OpenAI-compatible endpoint on 127.0.0.1 that plays the plan pipeline's happy path.
 */

const run = promisify(execFile);

/** The environment with the scripted endpoint as the provider (and no other key). */
function endpointEnv(endpoint: ScriptedEndpoint): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: endpoint.baseUrl };
}

function fixtureProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'council-deep-work-'));
  for (const [path, text] of Object.entries(FIXTURE_FILES)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  return project;
}

describe('deep work through the built council command', function () {
  this.timeout(60_000);
  let project: string;
  let endpoint: ScriptedEndpoint;
  before(buildCouncilCli);
  beforeEach(async () => {
    project = fixtureProject();
    endpoint = await serveScriptedModel(pipelineModel());
  });
  afterEach(async () => {
    await endpoint.close();
    rmSync(project, { recursive: true, force: true });
  });

  it('council plan --yes --json: every stage over HTTP, the run stored under .council/runs/, the code untouched', async () => {
    const started = Date.now();
    const { stdout, stderr } = await run(
      process.execPath,
      [COUNCIL_BUNDLE, 'plan', 'Add subtraction', '--yes', '--json', '--model', 'scripted'],
      { cwd: project, env: endpointEnv(endpoint) },
    );
    const result = JSON.parse(stdout) as DeepWorkResult;
    console.log(
      `      (council plan --yes: ${endpoint.requests()} requests, ${result.run?.spent.inputTokens} input / ${result.run?.spent.outputTokens} output tokens, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    assert.equal(result.run?.status, 'completed', stderr);
    assert.equal(result.run?.spent.requests, endpoint.requests(), 'one ledger line per HTTP request');
    assert.match(stderr, /Discovery: \d+ agents? at work/, 'progress lines on stderr');
    assert.match(stderr, /--yes: Continue/);
    const stored = readStoredWorkflowRun(JSON.parse(readFileSync(result.run?.file ?? '', 'utf8')) as unknown);
    assert.equal(stored.kind, 'current');
    assert.match(readFileSync(join(project, result.run?.folder ?? '', 'tickets.md'), 'utf8'), /T-1/);
    assert.equal(readFileSync(join(project, 'src/util/math.ts'), 'utf8'), FIXTURE_FILES['src/util/math.ts']);
  });

  it("council plan in a terminal: Enter continues, a number picks, and each ticket's changes wait for [y/N]", async () => {
    const terminal = new TmuxTerminal('council-plan');
    terminal.start(
      `cd ${JSON.stringify(project)} && node ${JSON.stringify(COUNCIL_BUNDLE)} plan "Add subtraction" --model scripted`,
      { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: endpoint.baseUrl },
    );
    try {
      await terminal.waitFor(/Checkpoint after Discovery[\s\S]*\[Enter\] Continue/, 'the first checkpoint');
      terminal.type('');
      await terminal.waitFor(/Checkpoint after Planning[\s\S]*\[Enter\] Continue/, 'the second checkpoint');
      terminal.type('1');
      await terminal.waitFor(/changes proposed for T-1[\s\S]*Apply them\? \[y\/N\]/, 'the first confirmation');
      terminal.type('y');
      await terminal.waitFor(/changes proposed for T-2[\s\S]*Apply them\? \[y\/N\]/, 'the second confirmation');
      terminal.type('');
      const end = await terminal.waitFor(/EXIT=\d+/, 'the command to end');
      assert.match(end, /EXIT=0/);
      assert.match(end, /Applied 2 changes for T-1/);
      assert.match(end, /Nothing applied: the changes for T-2 were not confirmed/);
      assert.equal(readFileSync(join(project, 'test/T-1.test.ts'), 'utf8'), 'it("works", () => {});\n');
      assert.throws(() => readFileSync(join(project, 'test/T-2.test.ts')), 'T-2 was not applied');
    } finally {
      terminal.close();
    }
  });

  it('council workflow runs a project workflow whose script phase writes a file in the QuickJS sandbox', async () => {
    mkdirSync(join(project, '.council', 'workflows'), { recursive: true });
    writeFileSync(
      join(project, '.council', 'workflows', 'notes.yaml'),
      [
        'name: notes',
        'description: Writes the goal down (a script, no model).',
        'phases:',
        '  - id: write',
        '    name: Write',
        '    description: Write the goal down.',
        '    behavior: main-only',
        '    main_agent:',
        '      script: |',
        "        await writeFile('notes.md', 'Goal: ' + context.goal);",
        '',
      ].join('\n'),
    );
    const listed = await run(process.execPath, [COUNCIL_BUNDLE, 'workflow'], { cwd: project });
    assert.match(listed.stdout, /notes: Writes the goal down/);
    const { stdout, stderr } = await run(
      process.execPath,
      [COUNCIL_BUNDLE, 'workflow', 'notes', 'Ship the release notes', '--yes', '--json'],
      { cwd: project, env: endpointEnv(endpoint) },
    );
    const result = JSON.parse(stdout) as DeepWorkResult;
    assert.equal(result.run?.status, 'completed', `${stderr}\n${stdout}`);
    assert.equal(
      readFileSync(join(project, result.run?.folder ?? '', 'notes.md'), 'utf8'),
      'Goal: Ship the release notes',
    );
    assert.equal(endpoint.requests(), 0, 'the script asked no model');
  });
});

describe('council plan --demo through the built command in a terminal', function () {
  this.timeout(90_000);
  let project: string;
  before(buildCouncilCli);
  beforeEach(() => {
    project = fixtureProject();
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  /** Every file under `folder`, project-relative, sorted. */
  const filesUnder = (folder: string): string[] =>
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter(entry => entry.isFile())
      .map(entry => join(relative(folder, entry.parentPath), entry.name))
      .sort();

  it('checkpoints answered on the terminal (one with feedback), requests counted, nothing written unconfirmed', async () => {
    const before = filesUnder(project);
    const terminal = new TmuxTerminal('council-plan-demo');
    // No key and no endpoint: the demo model is scripted and in-process.
    terminal.start(`cd ${JSON.stringify(project)} && node ${JSON.stringify(COUNCIL_BUNDLE)} plan --demo`, {
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      GOOGLE_GENERATIVE_AI_API_KEY: '',
    });
    const planningCheckpoints = (screen: string) => screen.match(/Checkpoint after Planning/g)?.length ?? 0;
    try {
      await terminal.waitFor(/Checkpoint after Discovery[\s\S]*\[Enter\] Continue/, 'the first checkpoint');
      assert.match(terminal.screen(), /So far: \d+ requests? · /, 'the checkpoint shows what the run has spent');
      terminal.type('');
      await terminal.waitFor(/Checkpoint after Planning[\s\S]*\[Enter\] Continue/, 'the planning checkpoint');
      terminal.type('2 Keep each ticket to one module.');
      await terminal.waitFor(
        /Resuming plan run[\s\S]*Checkpoint after Planning[\s\S]*Checkpoint after Planning[\s\S]*\[Enter\]/,
        'planning, redone',
      );
      assert.equal(planningCheckpoints(terminal.screen()), 2, 'Redo stage ran planning again');
      terminal.type('');
      await terminal.waitFor(/changes proposed for T-1[\s\S]*Apply them\? \[y\/N\]/, 'the first confirmation');
      terminal.type('n');
      await terminal.waitFor(/changes proposed for T-2[\s\S]*Apply them\? \[y\/N\]/, 'the second confirmation');
      terminal.type('');
      const end = await terminal.waitFor(/EXIT=\d+/, 'the command to end');
      assert.match(end, /EXIT=0/);
      assert.match(end, /Nothing applied: the changes for T-1 were not confirmed/);
      assert.match(end, /Nothing applied: the changes for T-2 were not confirmed/);
      const shown = Number(/The plan is complete \((\d+) requests/.exec(end)?.[1]);
      const runs = join(project, '.council', 'runs');
      const [file, ...more] = readdirSync(runs).filter(name => name.endsWith('.json'));
      assert.equal(more.length, 0, 'one run');
      const stored = readStoredWorkflowRun(JSON.parse(readFileSync(join(runs, file ?? ''), 'utf8')) as unknown);
      assert.ok(stored.kind === 'current');
      const ledger = stored.value.state.spending;
      assert.equal(
        ledger.reduce((sum, line) => sum + line.requests, 0),
        shown,
        "the requests shown are the ledger's",
      );
      assert.ok(
        ledger.every(line => line.model === 'Demo council (scripted, no network)'),
        'every request went to the demo model',
      );
      const added = filesUnder(project).filter(path => !before.includes(path));
      assert.ok(
        added.every(path => path.startsWith(join('.council', 'runs'))),
        `only .council/runs/ is written: ${added.join(', ')}`,
      );
      for (const [path, text] of Object.entries(FIXTURE_FILES))
        assert.equal(readFileSync(join(project, path), 'utf8'), text, path);
      console.log(`      (council plan --demo: ${shown} requests on the ledger)`);
    } finally {
      terminal.close();
    }
  });
});

describe('council_plan over the built MCP server', function () {
  this.timeout(60_000);
  let project: string;
  let endpoint: ScriptedEndpoint;
  let client: Client | undefined;
  before(buildCouncilCli);
  beforeEach(async () => {
    project = fixtureProject();
    endpoint = await serveScriptedModel(pipelineModel());
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await endpoint.close();
    rmSync(project, { recursive: true, force: true });
  });

  async function connect(): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [COUNCIL_BUNDLE, 'mcp', '--model', 'scripted'],
      cwd: project,
      env: endpointEnv(endpoint),
      stderr: 'pipe',
    });
    const connected = new Client({ name: 'council-test', version: '1.0.0' });
    await connected.connect(transport);
    return connected;
  }

  const textOf = (result: unknown) =>
    (result as CallToolResult).content.map(part => (part.type === 'text' ? part.text : '')).join('\n');

  it('runs to the first checkpoint with progress, returns the choices as next calls, and continues with one', async () => {
    client = await connect();
    const progress: string[] = [];
    const first = await client.callTool({ name: 'council_plan', arguments: { goal: 'Add subtraction' } }, undefined, {
      onprogress: p => progress.push(p.message ?? ''),
    });
    const text = textOf(first);
    assert.equal(first.isError, undefined, text);
    assert.match(text, /Checkpoint after Discovery/);
    assert.ok(
      progress.some(line => /Discovery/.test(line)),
      `progress notifications: ${progress.join(' | ')}`,
    );
    const runId = /"runId":"(wf-[\w-]+)","option":1/.exec(text)?.[1];
    assert.ok(runId, `the next calls name the run: ${text}`);
    const next = textOf(await client.callTool({ name: 'council_plan', arguments: { runId, option: 1 } }));
    assert.match(next, /Checkpoint after Planning/);
  });

  it('a malformed input says what is wrong and spends nothing', async () => {
    client = await connect();
    const listed = await client.callTool({ name: 'council_workflow', arguments: {} });
    assert.match(textOf(listed), /plan: Discovery of the codebase/, 'council_workflow alone lists the workflows');
    const result = await client.callTool({
      name: 'council_plan',
      arguments: { runId: 'wf-1', option: 1, action: 'continue' },
    });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /malformed input/);
    assert.equal(endpoint.requests(), 0);
  });

  it('cancellation stops the spending and keeps the run', async () => {
    client = await connect();
    const abort = new AbortController();
    const call = client.callTool({ name: 'council_plan', arguments: { goal: 'Add subtraction' } }, undefined, {
      signal: abort.signal,
      onprogress: p => {
        if (/at work/.test(p.message ?? '')) abort.abort();
      },
    });
    await assert.rejects(call);
    await new Promise(resolve => setTimeout(resolve, 1500));
    const spentAtCancel = endpoint.requests();
    await new Promise(resolve => setTimeout(resolve, 1000));
    assert.equal(endpoint.requests(), spentAtCancel, 'no request after the cancellation settled');
    const runs = join(project, '.council', 'runs');
    const [file, ...more] = readdirSync(runs).filter(name => name.endsWith('.json'));
    assert.equal(more.length, 0);
    const stored = readStoredWorkflowRun(JSON.parse(readFileSync(join(runs, file ?? ''), 'utf8')) as unknown);
    assert.equal(
      stored.kind === 'current' ? stored.value.status : stored.kind,
      'cancelled',
      'the run is kept, resumable',
    );
    const resumed = textOf(
      await client.callTool({
        name: 'council_plan',
        arguments: { runId: file?.replace(/\.json$/, ''), action: 'resume' },
      }),
    );
    assert.match(resumed, /Checkpoint after Discovery/, 'resume goes on from where it stopped');
  });
});
