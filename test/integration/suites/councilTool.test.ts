import * as vscode from 'vscode';
import * as assert from '../assert';
import { configure, councilExtension, fixture, newChat, sendChat } from '../harness';
import { playCouncil, stepsCalled } from '../councilPlay';
import type { CouncilApi } from '../../../src/extension';
import { TOOL } from '../../../src/core/council/toolSession';
import { councilFollowups } from '../../../src/vscode/chat/followups';
import { readCouncilMetadata } from '../../../src/vscode/chat/councilResult';

/** The session id the result text names. */
function sessionIdIn(text: string): string {
  const id = /Council session (\S+) is saved/.exec(text)?.[1];
  assert.ok(id, `the result names its session: ${text}`);
  return id as string;
}

/** Invokes the tool as an agent would (outside a chat request) and returns its text. */
async function invoke(input: object, token = new vscode.CancellationTokenSource().token): Promise<string> {
  const result = await vscode.lm.invokeTool(TOOL.deliberate, { input, toolInvocationToken: undefined }, token);
  return result.content.map(part => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

async function store(): Promise<CouncilApi['store']> {
  return ((await councilExtension()).exports as CouncilApi).store;
}

describe('the council_deliberate tool (agent mode)', () => {
  before(async () => {
    await councilExtension();
  });

  it('is offered to agents, referenceable as #council', () => {
    const tool = vscode.lm.tools.find(t => t.name === TOOL.deliberate);
    assert.ok(tool, `council_deliberate in vscode.lm.tools: ${vscode.lm.tools.map(t => t.name).join(', ')}`);
    assert.deepEqual((tool?.inputSchema as { required?: string[] } | undefined)?.required, []);
  });

  it('runs a council without clarifying questions and returns the answer, assumptions and disagreements', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0, convergeAtCycle: 1 });
    const text = await invoke({
      question: 'Should our API use JWTs or server-side sessions?',
      context: 'One region, 10k users.',
      maxCycles: 2,
    });
    assert.match(text, /## The council's answer/);
    assert.match(text, /### Where each persona landed/);
    assert.match(text, /### Assumptions/);
    assert.match(
      text,
      /\d+ requests · [\d.k]+ tokens \([\d.k]+ in, [\d.k]+ out\) · .*\(limit 40 credits, 12 requests\)/,
      'the answer says what it cost',
    );
    const steps = stepsCalled(api);
    assert.ok(!steps.includes('propose_clarifying_questions'), `no clarifying question: ${steps.join(', ')}`);
    assert.equal(steps[0], 'select_personas');
    const used = /Spent: (\d+) requests · .* \(forecast: about (\d+) requests, at most (\d+)\)\./.exec(text);
    assert.ok(used, `the requests used beside both figures of the forecast: ${text}`);
    assert.equal(Number(used?.[1]), steps.length);
    assert.ok(
      Number(used?.[2]) <= Number(used?.[3]) && Number(used?.[1]) <= Number(used?.[3]),
      `the expected figure within the bound, and the bound never below what was spent: ${used?.[0]}`,
    );
    const saved = (await store()).load(sessionIdIn(text));
    assert.ok(saved?.ok, 'the session is in the store');
    assert.equal(saved?.ok && saved.snapshot.value, 'completed');
    assert.match(saved?.ok ? saved.stored.input.requestText : '', /One region, 10k users\./);
  });

  it('from a tiny limit to the default, the tool never spends past it; a stop says what to raise and the result still answers', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0, convergeAtCycle: 'never' });
    const limited: number[] = [];
    for (const maxRequests of [1, 3, 6, 12]) {
      const restore = await configure({ 'budget.maxRequests': maxRequests });
      try {
        const before = api.requests().length;
        const text = await invoke({ question: 'Monorepo or polyrepo?', maxCycles: 3 });
        const sent = api.requests().length - before;
        assert.ok(sent <= maxRequests, `limit ${maxRequests}: ${sent} requests sent`);
        const spent = /Spent: (\d+) requests?/.exec(text);
        assert.equal(Number(spent?.[1]), sent, `limit ${maxRequests}: the result counts every request`);
        // Every result states the vote and what is open, finished or not.
        assert.match(text, /^Vote: /m);
        assert.match(text, /^Open disagreements: /m);
        if (/did not finish/.test(text))
          assert.match(text, /council\.budget\.max(Requests|Credits)/, `limit ${maxRequests}`);
        if (/council\.budget\.maxRequests/.test(text)) limited.push(maxRequests);
      } finally {
        await restore();
      }
    }
    assert.ok(
      limited.includes(1) && limited.includes(3),
      `the small limits stopped the council: ${limited.join(', ')}`,
    );
  });

  it('a session the tool ran opens in @council with /open, and the thread continues it (Extend the debate)', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0, convergeAtCycle: 'never' });
    const text = await invoke({ question: 'Tabs or spaces?', maxCycles: 1 });
    const id = sessionIdIn(text);
    assert.ok(text.includes(`the user types: \`@council /open ${id}\``), `the result says what to type: ${text}`);
    await newChat();
    const opened = await sendChat(`@council /open ${id}`);
    assert.equal(readCouncilMetadata(opened)?.sessionId, id);
    assert.equal(readCouncilMetadata(opened)?.state, 'completed');
    assert.ok(
      councilFollowups(opened).some(f => f.label === 'Extend the debate'),
      'the usual follow-ups',
    );
    const extended = await sendChat('@council /extend');
    assert.equal(readCouncilMetadata(extended)?.sessionId, id, 'the thread continued the opened session');
    const saved = (await store()).load(id);
    assert.ok(saved?.ok && saved.snapshot.context.debateCycles > 1, 'the opened session debated on');
    assert.equal(saved?.ok && saved.snapshot.value, 'completed');
  });

  it('/open names a session that is not stored, and the thread keeps no session', async () => {
    await newChat();
    const result = await sendChat('@council /open no-such-session');
    assert.equal(readCouncilMetadata(result)?.sessionId, undefined);
  });

  it('seats the named personas without a selection call', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0, convergeAtCycle: 1 });
    const text = await invoke({
      question: 'Queue or cron for nightly exports?',
      personas: ['devops-engineer', 'senior-developer'],
      maxCycles: 1,
    });
    assert.ok(!stepsCalled(api).includes('select_personas'), stepsCalled(api).join(', '));
    assert.match(text, /Council: DevOps Engineer, Senior Developer\./);
    assert.match(text, /## The council's answer/);
  });

  it('answers an input without a question with what is missing, making no request', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0 });
    const text = await invoke({ context: 'no question here' });
    assert.match(
      text,
      /council_deliberate was called with a malformed input \(nothing was run or spent\): .*either `question`.* or `sessionId`/,
    );
    assert.equal(api.requests().length, 0);
  });

  it('returns what went wrong as text when the model fails, with the session kept', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0 }, step =>
      step === 'write_answer'
        ? { fail: 'Blocked', message: 'temporarily blocked due to making too many requests' }
        : undefined,
    );
    const text = await invoke({ question: 'Rewrite the billing service in Rust?', maxCycles: 1 });
    assert.match(text, /The council did not finish\./);
    assert.match(
      text,
      /The session is saved; `council_deliberate` with its sessionId and "action": "retry" continues it\./,
    );
    assert.doesNotMatch(text, /## The council's answer/);
    const saved = (await store()).load(sessionIdIn(text));
    assert.ok(saved?.ok, 'the session is in the store');
  });

  it("stops when cancelled: the caller gets VS Code's cancellation, the run makes no further request, the session is kept", async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0 }, step =>
      step === 'contribute_to_debate' ? { waitForCancellation: true } : undefined,
    );
    const before = new Set((await store()).list().map(s => s.id));
    const source = new vscode.CancellationTokenSource();
    const pending = invoke({ question: 'Monorepo or many repos?', maxCycles: 2 }, source.token);
    const deadline = Date.now() + 10_000;
    while (!stepsCalled(api).includes('contribute_to_debate') && Date.now() < deadline)
      await new Promise(resolve => setTimeout(resolve, 50));
    source.cancel();
    // VS Code answers a cancelled invokeTool with its CancellationError (raceCancellation), whatever the tool does.
    await assert.rejects(pending, (error: unknown) => error instanceof Error && error.name === 'Canceled');
    const requests = api.requests().length;
    await new Promise(resolve => setTimeout(resolve, 500));
    assert.equal(api.requests().length, requests, `no request after the cancellation: ${stepsCalled(api).join(', ')}`);
    assert.ok(!stepsCalled(api).includes('moderate_cycle'));
    const created = (await store()).list().filter(s => !before.has(s.id));
    assert.equal(created.length, 1, 'the session is in the store');
    assert.equal(created[0]?.status, 'debating');
    assert.equal(created[0]?.requestText, 'Monorepo or many repos?');
  });
});
