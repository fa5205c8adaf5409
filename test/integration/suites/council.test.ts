import * as vscode from 'vscode';
import * as assert from '../assert';
import { configure, councilExtension, fixture, newChat, sendChat } from '../harness';
import { playCouncil, stepsCalled } from '../councilPlay';
import type { CouncilApi } from '../../../src/extension';
import type { CouncilResultMetadata } from '../../../src/vscode/chat/councilResult';
import { councilFollowups } from '../../../src/vscode/chat/followups';
import { SessionLog } from '../../../src/core/council/sessionLog';
import { PLAIN_MODEL_ID } from '../fixture/src/api';

function meta(result: vscode.ChatResult): CouncilResultMetadata {
  const metadata = result.metadata as CouncilResultMetadata | undefined;
  assert.equal(metadata?.council, 2, 'a council result');
  return metadata as CouncilResultMetadata;
}

async function store(): Promise<CouncilApi['store']> {
  return ((await councilExtension()).exports as CouncilApi).store;
}

async function session(result: vscode.ChatResult): Promise<SessionLog> {
  const id = meta(result).sessionId;
  assert.ok(id, 'the result names its session');
  const saved = (await store()).load(id as string);
  assert.ok(saved?.ok, 'the session is in workspace storage');
  return SessionLog.restore(saved?.ok ? saved.stored : undefined);
}

function labels(result: vscode.ChatResult): string[] {
  return councilFollowups(result).map(f => f.label ?? f.prompt);
}

describe('@council sessions in the chat view', () => {
  beforeEach(async () => {
    await newChat();
  });

  it('clarify -> answer -> debate -> final, with the right follow-ups at each step', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 2, convergeAtCycle: 2 });
    const first = await sendChat('@council How should we store user sessions?');
    assert.equal(meta(first).state, 'clarifying');
    assert.deepEqual(labels(first).slice(0, 4), [
      'Accept recommended answer',
      'Skip this question',
      'Skip the remaining questions (proceed on assumptions)',
      'Ask more questions',
    ]);
    const second = await sendChat('@council Latency matters most');
    assert.equal(meta(second).state, 'clarifying');
    assert.equal(meta(second).sessionId, meta(first).sessionId, 'the same session continues across turns');
    const final = await sendChat('@council /accept');
    assert.equal(meta(final).state, 'completed');
    const log = await session(final);
    assert.deepEqual(
      log.snapshot.context.answers.map(a => a.answer),
      ['Latency matters most', 'Recommended answer 1.2'],
    );
    assert.equal(log.snapshot.context.debateCycles, 2);
    assert.match(log.snapshot.context.finalAnswer ?? '', /Where each persona landed/);
    assert.ok(labels(final).includes('Show the assumption log'));
    assert.ok(!labels(final).includes('Accept recommended answer'));
    // Every call of the request used the model picked in the chat view.
    assert.ok(api.requests().every(r => r.modelId === api.requests()[0]?.modelId));
  });

  it('a skipped question becomes an assumption that appears in the final answer', async () => {
    playCouncil(await fixture(), { questions: 2 });
    await sendChat('@council Plan our database migration');
    const skipped = await sendChat('@council /skip');
    assert.ok(labels(skipped).includes('Revisit skipped questions'));
    const final = await sendChat('@council Two weeks');
    const log = await session(final);
    assert.equal(log.state, 'completed');
    assert.match(log.snapshot.context.finalAnswer ?? '', /Assumed: Recommended answer 1\.1/);
  });

  it('skip-all proceeds on assumptions straight to the final answer', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 3 });
    await sendChat('@council Choose a message queue');
    const final = await sendChat('@council /skipall');
    const log = await session(final);
    assert.equal(log.state, 'completed');
    assert.equal(log.snapshot.context.assumptionLog.length, 3);
    assert.ok(!stepsCalled(api).includes('contribute_to_debate'));
  });

  it('stops at the cycle limit with a notice, and Extend the debate continues it', async () => {
    const restore = await configure({ 'debate.maxCycles': 2, 'debate.adminMaxCycles': 3 });
    try {
      playCouncil(await fixture(), { convergeAtCycle: 'never' });
      const limited = await sendChat('@council /debate Tabs or spaces?');
      let log = await session(limited);
      assert.equal(log.snapshot.context.debateCycles, 2);
      assert.equal(log.snapshot.context.discussions.at(-1)?.status, 'limit_reached');
      assert.equal(log.snapshot.context.limitNotice, true);
      assert.ok(labels(limited).includes('Extend the debate'));
      const extended = await sendChat('@council /extend');
      log = await session(extended);
      assert.equal(log.snapshot.context.debateCycles, 3);
      assert.ok(!labels(extended).includes('Extend the debate'), 'the admin maximum is reached');
    } finally {
      await restore();
    }
  });

  it('a model error mid-debate keeps the session, says what happened, and Try again finishes it', async () => {
    const api = await fixture();
    let failed = false;
    playCouncil(api, { questions: 0 }, step => {
      if (step === 'contribute_to_debate' && !failed) {
        failed = true;
        return { fail: 'Blocked', message: 'quota exceeded' };
      }
      return undefined;
    });
    const broken = await sendChat('@council Is Redis a good session store?');
    assert.ok(broken.errorDetails?.message, 'an error message');
    assert.match(broken.errorDetails?.message ?? '', /Try again/);
    assert.equal(meta(broken).state, 'debating');
    assert.deepEqual(labels(broken).slice(0, 1), ['Try again']);
    const retried = await sendChat('@council /retry');
    assert.equal(meta(retried).state, 'completed');
    assert.equal(retried.errorDetails, undefined);
  });

  it('a used-up Copilot allowance says so in an error box and suggests an included model; Try again continues', async () => {
    const api = await fixture();
    let failed = false;
    playCouncil(api, { questions: 0 }, step => {
      if (step === 'contribute_to_debate' && !failed) {
        failed = true;
        return { fail: 'ChatQuotaExceeded', message: 'You have exceeded your premium request allowance ```' };
      }
      return undefined;
    });
    const broken = await sendChat('@council Is Redis a good session store?');
    assert.match(
      broken.errorDetails?.message ?? '',
      /usage for this model is used up.*included in your plan.*The session is saved\./,
    );
    assert.ok(!(broken.errorDetails?.message ?? '').includes('```'), 'provider text never opens a code block');
    assert.deepEqual(labels(broken).slice(0, 1), ['Try again']);
    assert.equal(meta(await sendChat('@council /retry')).state, 'completed');
  });

  it('an answer request that fails still leaves an answer, written from the vote, with Try again and no error box', async () => {
    const api = await fixture();
    let failed = false;
    playCouncil(api, { questions: 0, convergeAtCycle: 1, decisionOptions: true }, step => {
      if (step === 'write_answer' && !failed) {
        failed = true;
        return { fail: 'ServerError', message: 'Service unavailable.' };
      }
      return undefined;
    });
    const broken = await sendChat('@council /debate Signed cookies or server-side sessions?');
    assert.equal(broken.errorDetails, undefined);
    assert.equal(meta(broken).state, 'final');
    assert.deepEqual(labels(broken).slice(0, 1), ['Try again']);
    const retried = await sendChat('@council /retry');
    assert.equal(meta(retried).state, 'completed');
    assert.equal(retried.errorDetails, undefined);
  });

  it('works with a model without tool calling (fenced JSON)', async () => {
    playCouncil(await fixture(), { questions: 0 });
    const result = await sendChat('@council /debate Monorepo or polyrepo?', { modelId: PLAIN_MODEL_ID });
    assert.equal(meta(result).state, 'completed');
  });

  it('cancel ends the session', async () => {
    playCouncil(await fixture());
    await sendChat('@council Should we rewrite in Rust?');
    const cancelled = await sendChat('@council /cancel');
    assert.equal(meta(cancelled).state, 'cancelled');
    assert.equal((await session(cancelled)).state, 'cancelled');
  });

  it('continues from workspace storage when the last turn never reached the chat history (reload mid-turn)', async () => {
    playCouncil(await fixture(), { questions: 3 });
    const first = await sendChat('@council Which CI system should we use?');
    // What a turn cut off by a reload leaves behind: its events persisted, its response never shown.
    const log = await session(first);
    log.apply({
      type: 'QUESTION_ANSWERED',
      answer: { answerId: 'reload-answer', answer: 'GitHub hosted' },
      at: new Date().toISOString(),
    });
    await (await store()).save(log.stored);
    await sendChat('@council Budget is small');
    const after = await session(first);
    assert.deepEqual(
      after.snapshot.context.answers.map(a => a.answer),
      ['GitHub hosted', 'Budget is small'],
    );
  });

  it('two chat threads are two independent sessions', async () => {
    playCouncil(await fixture(), { questions: 2 });
    const a = await sendChat('@council First topic');
    await newChat();
    const b = await sendChat('@council Second topic');
    assert.notEqual(meta(a).sessionId, meta(b).sessionId);
    await sendChat('@council Answer in thread B');
    const sessionA = await session(a);
    const sessionB = await session(b);
    assert.equal(sessionA.snapshot.context.answers.length, 0, 'thread A untouched');
    assert.equal(sessionB.snapshot.context.answers.length, 1);
  });

  it('refuses a fourth clarification round, and honours a lower maxRounds setting', async () => {
    const restore = await configure({ 'clarification.maxRounds': 1 });
    try {
      playCouncil(await fixture(), { questions: 1 });
      const first = await sendChat('@council Pick a logging library');
      assert.ok(!labels(first).includes('Ask more questions'));
      const refused = await sendChat('@council /more');
      assert.equal(meta(refused).state, 'clarifying');
      assert.equal((await session(refused)).snapshot.context.clarificationRounds, 1);
    } finally {
      await restore();
    }
  });

  it('Ask more questions opens a new round; Revisit skipped questions asks a skipped one again', async () => {
    playCouncil(await fixture(), { questions: 2, moreQuestions: 1 });
    await sendChat('@council Should we cache API responses?');
    const more = await sendChat('@council /more');
    let log = await session(more);
    assert.equal(log.snapshot.context.clarificationRounds, 2);
    assert.equal(log.snapshot.context.questions.length, 3);
    await sendChat('@council /skip');
    const revisited = await sendChat('@council /revisit');
    log = await session(revisited);
    assert.equal(log.snapshot.context.questions.filter(q => q.status === 'deferred').length, 0);
    assert.equal(
      log.snapshot.context.questions.filter(q => q.status === 'pending').length,
      3,
      'the skipped question is pending again',
    );
    assert.equal(meta(revisited).state, 'clarifying');
  });

  it("Start a new session forgets the thread's session; the next request starts another", async () => {
    playCouncil(await fixture(), { questions: 1 });
    const first = await sendChat('@council First question');
    const reset = await sendChat('@council /new');
    assert.equal(meta(reset).sessionId, undefined);
    const next = await sendChat('@council A different question');
    assert.ok(meta(next).sessionId);
    assert.notEqual(meta(next).sessionId, meta(first).sessionId);
    assert.equal((await session(next)).snapshot.context.requestText, 'A different question');
  });

  it('/status, /assumptions and /personas answer without model calls', async () => {
    const api = await fixture();
    playCouncil(api);
    await sendChat('@council Should we adopt Kubernetes?');
    const calls = api.requests().length;
    for (const command of ['/status', '/assumptions', '/personas']) {
      const result = await sendChat(`@council ${command}`);
      assert.equal(result.errorDetails, undefined);
      assert.equal(meta(result).state, 'clarifying');
    }
    assert.equal(api.requests().length, calls);
  });
});

describe('Council commands', () => {
  beforeEach(async () => {
    await newChat();
  });

  it('Select Personas pins the council of the next sessions', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0 });
    await vscode.commands.executeCommand('council.selectPersonas', { ids: ['qa-engineer', 'devops-engineer'] });
    try {
      const result = await sendChat('@council How do we test deployments?');
      const names = (await session(result)).snapshot.context.participants
        .filter(p => p.type === 'persona')
        .map(p => p.name);
      assert.deepEqual(names, ['QA Engineer', 'DevOps Engineer']);
      assert.ok(!stepsCalled(api).includes('select_personas'));
    } finally {
      await vscode.commands.executeCommand('council.selectPersonas', { ids: [] });
    }
  });

  it('Export Session Transcript writes the turns, assumptions and final answer', async () => {
    playCouncil(await fixture(), { questions: 1 });
    await sendChat('@council Cache or not?');
    await sendChat('@council /skip');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.parse('memfs:/');
    const target = vscode.Uri.joinPath(folder, 'transcript-test.md');
    await vscode.commands.executeCommand('council.exportTranscript', { uri: target });
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    await vscode.workspace.fs.delete(target);
    assert.match(text, /# Council session/);
    assert.match(text, /## Assumptions\n\n- Assumed: Recommended answer 1\.1/);
    assert.match(text, /## Final answer\n\n## The council's answer/);
  });

  it('Show Assumption Log opens the log; Cancel Session cancels the latest session', async () => {
    playCouncil(await fixture(), { questions: 2 });
    await sendChat('@council Which ORM?');
    await sendChat('@council /skip');
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('council.showAssumptionLog');
    assert.match(document?.getText() ?? '', /Assumption log[\s\S]*Assumed: Recommended answer 1\.1/);
    const state = await vscode.commands.executeCommand<string>('council.cancelSession');
    assert.equal(state, 'cancelled');
  });
});
