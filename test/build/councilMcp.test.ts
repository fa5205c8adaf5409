import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { SessionLog } from '../../src/core/council/sessionLog';
import { DEMO_DECISION, DemoModel } from '../../src/cli/demo/demoModel';
import { neverCancelled } from '../../src/core/llm/languageModel';
import { buildCouncilCli, COUNCIL_BUNDLE } from '../support/buildCouncilCli';
import { nonPortable } from '../support/portableSchemaRules';

/*
 * `council mcp` end to end: the built command started over stdio by the MCP SDK's own Client, on the demo model
 * (or, with no model configured, on the client's model through sampling answered with the demo model's script).
 */

type Elicit = () => ElicitResult;

interface Started {
  readonly client: Client;
  readonly elicitations: string[];
  readonly samplings: number;
}

async function start(
  project: string,
  options: { demo?: boolean; elicit?: Elicit; sampling?: boolean } = {},
): Promise<Started & { samplingCount(): number }> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'].includes(key))
      env[key] = value;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [COUNCIL_BUNDLE, 'mcp', ...(options.demo === false ? [] : ['--demo'])],
    cwd: project,
    env,
    stderr: 'pipe',
  });
  const client = new Client(
    { name: 'council-test', version: '1.0.0' },
    {
      capabilities: {
        ...(options.elicit ? { elicitation: {} } : {}),
        ...(options.sampling ? { sampling: {} } : {}),
      },
    },
  );
  const elicitations: string[] = [];
  let samplings = 0;
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, request => {
      elicitations.push(request.params.message);
      return elicit();
    });
  }
  if (options.sampling) {
    const demo = new DemoModel();
    client.setRequestHandler(CreateMessageRequestSchema, async request => {
      samplings += 1;
      const messages = request.params.messages.map(m => ({
        role: m.role,
        content: (Array.isArray(m.content) ? m.content : [m.content])
          .map(part => (part.type === 'text' ? part.text : ''))
          .join(''),
      }));
      let reply = '';
      for await (const part of demo.sendRequest({ messages }, neverCancelled))
        if (part.kind === 'text') reply += part.text;
      return { role: 'assistant', model: 'scripted-demo', content: { type: 'text', text: reply } };
    });
  }
  await client.connect(transport);
  return { client, elicitations, samplings, samplingCount: () => samplings };
}

function resultText(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map(part => (part.type === 'text' ? part.text : '')).join('\n');
}

function sessions(project: string): SessionLog[] {
  const folder = join(project, '.council', 'sessions');
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter(name => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names.map(name => SessionLog.restore(JSON.parse(readFileSync(join(folder, name), 'utf8')) as unknown));
}

describe('council mcp over stdio', function () {
  this.timeout(60_000);
  let project: string;
  let client: Client | undefined;
  before(buildCouncilCli);
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'council-mcp-'));
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    rmSync(project, { recursive: true, force: true });
  });

  it('lists the four tools with portable input schemas and no $schema', async () => {
    ({ client } = await start(project));
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map(t => t.name).sort(), [
      'council_deliberate',
      'council_open',
      'council_plan',
      'council_workflow',
    ]);
    for (const tool of tools) {
      assert.equal(JSON.stringify(tool.inputSchema).includes('$schema'), false, `${tool.name} carries $schema`);
      assert.deepEqual(nonPortable(tool.inputSchema), [], `${tool.name} has non-portable keywords`);
    }
  });

  it('asks the clarifying questions by elicitation and runs the council when they are accepted', async () => {
    const started = await start(project, { elicit: () => ({ action: 'accept', content: {} }) });
    client = started.client;
    const progress: string[] = [];
    const result = await client.callTool({ name: 'council_open', arguments: { question: DEMO_DECISION } }, undefined, {
      onprogress: p => progress.push(p.message ?? ''),
    });
    assert.ok(started.elicitations.length > 0, 'questions were asked');
    assert.ok(
      started.elicitations.every(m => m.includes('Recommended:')),
      'each shows its recommended answer',
    );
    const [log] = sessions(project);
    assert.equal(log?.state, 'completed');
    assert.equal(
      log?.snapshot.context.questions.every(q => q.status === 'answered'),
      true,
    );
    assert.match(resultText(result), /Council session/);
    assert.ok(progress.length > 0, 'progress notifications arrived');
  });

  it('a declined question is skipped and logged as an assumption', async () => {
    const started = await start(project, { elicit: () => ({ action: 'decline' }) });
    client = started.client;
    await client.callTool({ name: 'council_open', arguments: { question: DEMO_DECISION } });
    const [log] = sessions(project);
    assert.equal(log?.state, 'completed');
    assert.deepEqual(
      log?.snapshot.context.questions.map(q => q.status),
      started.elicitations.map(() => 'deferred'),
    );
    assert.equal(log?.snapshot.context.assumptionLog.length, started.elicitations.length);
  });

  it('one council through MCP spends what `council ask --demo --yes` spends on the same model', async () => {
    const started = await start(project, { elicit: () => ({ action: 'decline' }) });
    client = started.client;
    await client.callTool({ name: 'council_open', arguments: { question: DEMO_DECISION } });
    const [mcp] = sessions(project);
    const askFolder = mkdtempSync(join(tmpdir(), 'council-ask-'));
    try {
      const printed = execFileSync(process.execPath, [COUNCIL_BUNDLE, 'ask', '--demo', '--yes', '--json'], {
        cwd: askFolder,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const ask = (JSON.parse(printed) as { spent: { requests: number; inputTokens: number; outputTokens: number } })
        .spent;
      const viaMcp = mcp?.spent;
      assert.ok(viaMcp);
      console.log(
        `      (requests / input tokens / output tokens: mcp ${viaMcp.requests} / ${viaMcp.inputTokens} / ${viaMcp.outputTokens}; ask ${ask.requests} / ${ask.inputTokens} / ${ask.outputTokens}; bundle ${(statSync(COUNCIL_BUNDLE).size / 1024).toFixed(0)} KiB)`,
      );
      assert.equal(viaMcp.requests, ask.requests);
    } finally {
      rmSync(askFolder, { recursive: true, force: true });
    }
  });

  it('a cancelled question stops the council with its questions open', async () => {
    const started = await start(project, { elicit: () => ({ action: 'cancel' }) });
    client = started.client;
    const result = await client.callTool({ name: 'council_open', arguments: { question: DEMO_DECISION } });
    assert.equal(started.elicitations.length, 1, 'no question after the cancel');
    const [log] = sessions(project);
    assert.equal(log?.state, 'clarifying');
    assert.equal(log?.snapshot.context.debateCycles, 0, 'no debate ran');
    assert.match(resultText(result), /cancelled the clarifying questions/);
  });

  it('without elicitation returns the questions with their ids, as the VS Code tools do', async () => {
    ({ client } = await start(project));
    const result = resultText(await client.callTool({ name: 'council_open', arguments: { question: DEMO_DECISION } }));
    assert.match(result, /\[questionId: [^\]]+\]/);
    assert.equal(sessions(project)[0]?.state, 'clarifying');
    // What the debate still ahead will probably cost, and at most, as the VS Code tool tells its agent.
    assert.match(
      result,
      /The debate still ahead is forecast at about \d+ more requests? and .*; at most \d+ more requests?/,
    );
  });

  it("runs on the client's model through sampling when none is configured, and says so", async () => {
    const started = await start(project, { demo: false, sampling: true });
    client = started.client;
    const result = resultText(
      await client.callTool({ name: 'council_deliberate', arguments: { question: DEMO_DECISION } }),
    );
    assert.ok(started.samplingCount() > 0, 'the server sampled the client');
    assert.match(result, /sampling/);
    assert.match(result, /deprecated/);
    assert.equal(sessions(project)[0]?.state, 'completed');
  });

  it('with no model and no sampling says how to configure one, spending nothing', async () => {
    ({ client } = await start(project, { demo: false }));
    const result = await client.callTool({ name: 'council_open', arguments: { question: DEMO_DECISION } });
    assert.equal(result.isError, true);
    assert.match(resultText(result), /OPENAI_API_KEY/);
    assert.deepEqual(sessions(project), []);
  });

  it('cancellation stops the spending and keeps the session', async () => {
    ({ client } = await start(project));
    const abort = new AbortController();
    const call = client.callTool({ name: 'council_deliberate', arguments: { question: DEMO_DECISION } }, undefined, {
      signal: abort.signal,
      onprogress: () => abort.abort(),
    });
    await assert.rejects(call);
    await new Promise(resolve => setTimeout(resolve, 1500));
    const [log] = sessions(project);
    assert.ok(log, 'the session is saved');
    assert.notEqual(log.state, 'completed', 'the council stopped before its answer');
  });

  it('malformed input says what is missing and spends nothing', async () => {
    ({ client } = await start(project));
    const open = await client.callTool({ name: 'council_open', arguments: {} });
    assert.equal(open.isError, true);
    assert.match(resultText(open), /question/);
    const both = await client.callTool({
      name: 'council_deliberate',
      arguments: { question: 'x', sessionId: 'y' },
    });
    assert.equal(both.isError, true);
    assert.match(resultText(both), /either `question`/);
    assert.deepEqual(sessions(project), []);
  });
});
