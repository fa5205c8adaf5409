import * as vscode from 'vscode';
import * as assert from '../assert';
import { configure, councilExtension, COUNCIL_EXTENSION_ID, fixture, newChat, sendChat } from '../harness';
import { playCouncil, stepsCalled } from '../councilPlay';
import { pipelineReply } from '../pipelinePlay';
import { PLAIN_MODEL_ID, TOOL_MODEL_ID, type FixtureApi } from '../fixture/src/api';
import type { CouncilApi } from '../../../src/extension';
import { TOOL } from '../../../src/core/council/toolSession';
import type { CouncilScriptOptions } from '../../support/councilScript';

/** Invokes a Council tool as an agent would outside a chat (no invocation token) and returns its text. */
async function invoke(
  name: string,
  input: object,
  token = new vscode.CancellationTokenSource().token,
): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);
  return result.content.map(part => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

async function api(): Promise<CouncilApi> {
  return (await councilExtension()).exports as CouncilApi;
}

/** The council's script for council steps, the `/plan` pipeline's for its agents; exploration stops at once. */
function playAll(fixtureApi: FixtureApi, options: CouncilScriptOptions): void {
  playCouncil(
    fixtureApi,
    options,
    (step, request) => pipelineReply(request) ?? (step === '' ? 'I know enough.' : undefined),
  );
}

function sessionIdIn(text: string): string {
  const id = /Council session (\S+?)[ .]/.exec(text)?.[1];
  assert.ok(id, `the result names its session: ${text}`);
  return id as string;
}

/** The questions an open session's result lists, with their ids. */
function questionIds(text: string): string[] {
  return [...text.matchAll(/\[questionId: ([^\]]+)\]/g)].map(m => m[1] ?? '');
}

describe('Council in any harness: its tools, custom agent and skill', function () {
  this.timeout(120_000);
  let restoreModel: () => Promise<void> = async () => undefined;

  before(async () => {
    await councilExtension();
    // The tools' model rule is tested on its own below; the round trips run on the tool-calling test model.
    restoreModel = await configure({ 'models.default': `council-test/${TOOL_MODEL_ID}` });
  });
  after(() => restoreModel());

  it('offers four tools to agents, each with a schema in the portable subset', () => {
    for (const name of Object.values(TOOL)) {
      const tool = vscode.lm.tools.find(t => t.name === name);
      assert.ok(tool, `${name} in vscode.lm.tools`);
      const schema = JSON.stringify(tool?.inputSchema ?? {});
      assert.doesNotMatch(schema, /"(oneOf|const|additionalProperties|\$schema|uniqueItems|propertyNames)"/, name);
    }
  });

  it('ships the Council custom agent and the council-protocol skill where VS Code lists customizations', async () => {
    const listed =
      await vscode.commands.executeCommand<{ uri: { path: string }; type: string; extensionId: string }[]>(
        '_listExtensionPromptFiles',
      );
    const ours = (listed ?? []).filter(file => file.extensionId.toLowerCase() === COUNCIL_EXTENSION_ID);
    const kinds = ours.map(file => `${file.type}:${file.uri.path.split('/').slice(-2).join('/')}`);
    assert.ok(kinds.includes('agent:agents/council.agent.md'), `the agent is listed: ${JSON.stringify(kinds)}`);
    assert.ok(kinds.includes('skill:council-protocol/SKILL.md'), `the skill is listed: ${JSON.stringify(kinds)}`);
  });

  it('open → answers and a skipped question → deliberate → extend by id → plan to a checkpoint → resume', async () => {
    const fixtureApi = await fixture();
    playAll(fixtureApi, { questions: 2, convergeAtCycle: 'never' });
    const restore = await configure({ 'debate.maxCycles': 1, 'budget.maxRequests': 0, 'budget.maxCredits': 0 });
    try {
      const opened = await invoke(TOOL.open, { question: 'JWT or server-side sessions?', context: 'One region.' });
      assert.deepEqual(stepsCalled(fixtureApi), ['open_session'], 'the opening is one request, before any debate');
      const id = sessionIdIn(opened);
      const [first, second] = questionIds(opened);
      assert.ok(first && second, `two questions with ids: ${opened}`);
      assert.match(opened, /ONE AT A TIME/);
      // The agent reads the debate's two figures before it calls council_deliberate (one cycle: drafts and the answer).
      const ahead =
        /The debate still ahead is forecast at about (\d+) more requests? and .*; at most (\d+) more requests? and /.exec(
          opened,
        );
      assert.ok(ahead, `the open result forecasts the debate: ${opened}`);
      assert.ok(Number(ahead?.[1]) <= Number(ahead?.[2]), ahead?.[0]);
      assert.match(opened, new RegExp(`Model: .*council\\.models\\.default`));

      const answered = await invoke(TOOL.deliberate, {
        sessionId: id,
        answers: [{ questionId: first, answer: 'About 10k users' }],
      });
      assert.match(answered, /## The council's answer/);
      assert.match(answered, /Clarifying questions: 2 asked/);
      assert.match(answered, /Extend the debate: `council_deliberate` with \{"sessionId":".*","action":"extend"\}/);
      const stored = (await api()).store.load(id);
      assert.ok(stored?.ok);
      const questions = stored?.ok ? stored.snapshot.context.questions : [];
      assert.equal(questions.find(q => q.questionId === first)?.status, 'answered');
      assert.equal(questions.find(q => q.questionId === second)?.status, 'deferred');
      assert.ok(
        stored?.ok && stored.snapshot.context.assumptionLog.some(a => a.relatedQuestionId === second),
        'the skipped question is a logged assumption',
      );
      const cyclesBefore = stored?.ok ? stored.snapshot.context.debateCycles : 0;

      const extended = await invoke(TOOL.deliberate, { sessionId: id, action: 'extend' });
      assert.match(extended, /## The council's answer/);
      const afterExtend = (await api()).store.load(id);
      assert.ok(afterExtend?.ok && afterExtend.snapshot.context.debateCycles > cyclesBefore, 'the debate went on');

      const planned = await invoke(TOOL.plan, { sessionId: id });
      assert.match(planned, /- Continue: `council_plan` with \{"runId":"(wf-[0-9a-f-]+)","option":1\}/, planned);
      assert.match(
        planned,
        /- Redo stage: `council_plan` with \{"runId":"wf-[0-9a-f-]+","option":2\} \(add "feedback"/,
      );
      const runId = /"runId":"(wf-[0-9a-f-]+)"/.exec(planned)?.[1] ?? '';
      assert.equal((await api()).runs.read(runId).kind, 'found');
      // The older input (an action word) still picks the option that does it.
      const resumed = await invoke(TOOL.plan, { runId, action: 'continue' });
      assert.ok(
        fixtureApi.requests().some(r => r.tools.some(t => t.name === 'planning_agent_result')),
        'Continue ran the planning stage',
      );
      assert.match(resumed, /`council_plan` with \{"runId":"wf-/, 'the next checkpoint offers its choices again');
    } finally {
      await restore();
    }
  });

  it('a session a tool began opens in @council, and a chat session continues through the tools', async () => {
    const fixtureApi = await fixture();
    playCouncil(fixtureApi, { questions: 1, convergeAtCycle: 1 });
    const opened = await invoke(TOOL.open, { question: 'Monorepo or polyrepo?' });
    const id = sessionIdIn(opened);
    await newChat();
    const inChat = await sendChat(`@council /open ${id}`);
    assert.equal((inChat.metadata as { sessionId?: string }).sessionId, id);
    const answered = await sendChat('@council /accept');
    assert.equal((answered.metadata as { state?: string }).state, 'completed', 'the chat finished the tool’s session');
    const again = await invoke(TOOL.deliberate, { sessionId: id, action: 'retry' });
    assert.match(again, /## The council's answer/, 'the tools read the session the chat completed');
  });

  it("when the answer's own request fails, the agent still gets the answer written from the vote, and Try again", async () => {
    const fixtureApi = await fixture();
    let failed = false;
    playCouncil(fixtureApi, { questions: 0, convergeAtCycle: 1, decisionOptions: true }, step => {
      if (step !== 'write_answer' || failed) return undefined;
      failed = true;
      return { fail: 'ServerError', message: 'Service unavailable.' };
    });
    const text = await invoke(TOOL.deliberate, { question: 'Signed cookies or server-side sessions?' });
    assert.match(text, /_Written from the vote; the answer's own request failed: /);
    assert.doesNotMatch(text, /The council did not finish/);
    const retry = /Try again .*`council_deliberate` with (\{"sessionId":"[^"]+","action":"retry"\})/.exec(text);
    assert.ok(retry, `Try again is the next call: ${text}`);
    const written = await invoke(TOOL.deliberate, JSON.parse(retry?.[1] ?? '{}') as object);
    assert.match(written, /## The council's answer/);
    assert.doesNotMatch(written, /Written from the vote/);
  });

  it('the spending limit holds across tool calls of one session', async () => {
    const fixtureApi = await fixture();
    playCouncil(fixtureApi, { questions: 1, convergeAtCycle: 'never' });
    const restore = await configure({ 'budget.maxRequests': 4 });
    try {
      const opened = await invoke(TOOL.open, { question: 'Kafka or a database queue?' });
      const text = await invoke(TOOL.deliberate, { sessionId: sessionIdIn(opened) });
      assert.ok(fixtureApi.requests().length <= 4, `${fixtureApi.requests().length} requests over two tool calls`);
      assert.match(text, /Spent: [1-4] requests/);
      assert.match(text, /council\.budget\.maxRequests|limit [^)]*4 requests\)/, 'the limit is named');
    } finally {
      await restore();
    }
  });

  it('a malformed input gets a message that says what is wrong, and no request is made', async () => {
    const fixtureApi = await fixture();
    playCouncil(fixtureApi, {});
    assert.match(
      await invoke(TOOL.open, { context: 'no question' }),
      /council_open was called with a malformed input \(nothing was run or spent\): .*question/,
    );
    assert.match(
      await invoke(TOOL.deliberate, { sessionId: 'nope', answers: [{ questionId: 'q', answer: 'a' }] }),
      /cannot be continued: no session `nope` is stored in this workspace/,
    );
    assert.match(await invoke(TOOL.plan, {}), /council_plan was called with a malformed input .*goal/);
    assert.match(
      await invoke(TOOL.workflow, { workflow: 'plan', runId: 'wf-x' }),
      /council_workflow was called with a malformed input .*runId/,
    );
    assert.equal(fixtureApi.requests().length, 0);
  });

  it('lists the workflows without spending', async () => {
    const fixtureApi = await fixture();
    const text = await invoke(TOOL.workflow, {});
    assert.match(text, /plan/);
    assert.equal(fixtureApi.requests().length, 0);
  });

  it('shows progress while it works: the first line within a second, who drafts, each cycle, the cost so far', async () => {
    const fixtureApi = await fixture();
    playCouncil(fixtureApi, { questions: 0, convergeAtCycle: 2 });
    const shown = (await api()).toolProgress;
    const started = Date.now();
    await invoke(TOOL.deliberate, { question: 'REST or GraphQL for the public API?', maxCycles: 2 });
    // The extension keeps the last 50 lines: this call's are those shown since it started.
    const lines = shown.filter(line => line.at >= started);
    assert.ok(lines.length >= 4, `progress lines: ${JSON.stringify(lines.map(l => l.message))}`);
    const first = lines[0];
    assert.ok(first && first.at - started < 1000, `the first line after ${first ? first.at - started : '?'} ms`);
    const said = JSON.stringify(lines.map(l => l.message));
    assert.ok(
      lines.some(l => /(thinking|drafting)…/.test(l.message) && /Senior Developer/.test(l.message)),
      `who is drafting: ${said}`,
    );
    assert.ok(
      lines.some(l => /^Cycle 1: /.test(l.message)),
      `each cycle's summary: ${said}`,
    );
    assert.ok(
      lines.some(l => /\d+ requests? ·/.test(l.message)),
      'the cost so far',
    );
  });

  it('runs on the documented model: council.models.default, else the model last used with @council', async () => {
    const fixtureApi = await fixture();
    playCouncil(fixtureApi, { questions: 1 });
    const restore = await configure({ 'models.default': '' });
    try {
      await newChat();
      await sendChat('@council /status', { modelId: PLAIN_MODEL_ID });
      const lastUsed = await invoke(TOOL.open, { question: 'Tabs or spaces?' });
      assert.match(lastUsed, /Model: .*the model you last used with `@council`/);
      assert.ok(
        fixtureApi.requests().every(r => r.modelId === PLAIN_MODEL_ID),
        'ran on the plain model',
      );
      await vscode.workspace
        .getConfiguration('council')
        .update('models.default', `council-test/${TOOL_MODEL_ID}`, vscode.ConfigurationTarget.Global);
      fixtureApi.reset();
      playCouncil(fixtureApi, { questions: 1 });
      const set = await invoke(TOOL.open, { question: 'Tabs or spaces?' });
      assert.match(set, /Model: .*\(set in `council\.models\.default`\)/);
      assert.ok(fixtureApi.requests().every(r => r.modelId === TOOL_MODEL_ID));
    } finally {
      await restore();
    }
  });

  it("from a chat, asks the questions through VS Code's question tool; nobody there (autopilot) logs assumptions", async () => {
    const fixtureApi = await fixture();
    playCouncil(fixtureApi, { questions: 2, convergeAtCycle: 1 });
    const restoreChat = await configure({ 'permissions.default': 'autopilot' }, 'chat');
    try {
      await newChat();
      const steps = [
        { tool: TOOL.open, input: { question: 'Which cache for sessions?' } },
        { tool: TOOL.deliberate, input: { sessionId: '$sessionId' } },
      ];
      const result = await sendChat(`agent-loop ${JSON.stringify(steps)}`);
      const [opened = '', answer = ''] = (result.metadata as { toolResults?: string[] }).toolResults ?? [];
      assert.match(opened, /could not be asked \(VS Code answered that nobody is available\): 2 question\(s\) skipped/);
      assert.doesNotMatch(opened, /ONE AT A TIME/, 'no question is left for the agent to ask');
      assert.match(answer, /## The council's answer/);
      const stored = (await api()).store.load(sessionIdIn(opened));
      assert.ok(stored?.ok);
      const context = stored?.ok ? stored.snapshot.context : undefined;
      assert.equal(context?.assumptionLog.length, 2, 'each unanswered question is a logged assumption');
    } finally {
      await restoreChat();
    }
  });
});
