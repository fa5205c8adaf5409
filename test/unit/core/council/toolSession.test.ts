import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import {
  deliberationResultText,
  DeliberationInputSchema,
  sessionRequest,
  sessionToolResult,
} from '../../../../src/core/council/deliberation';
import {
  clarifyingReport,
  continuationCommands,
  OpenInputSchema,
  readToolInput,
} from '../../../../src/core/council/toolSession';
import { pendingQuestions } from '../../../../src/core/session/selectors';
import { councilRig } from '../../../support/councilHarness';
import type { CouncilScriptOptions } from '../../../support/councilScript';

const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 3, adminMaxDebateCycles: 10 };

/** A session opened as `council_open` opens it: the opening, then a stop before the debate. */
async function opened(script: CouncilScriptOptions = { questions: 2, convergeAtCycle: 1 }) {
  const rig = await councilRig({ script });
  const log = newCouncilSession({ request: 'JWT or server-side sessions?', userId: 'agent', limits: LIMITS }, rig.deps);
  await runCouncilTurn(log, { kind: 'retry' }, rig.deps, { stopBeforeDebate: true });
  return { rig, log };
}

const SPENT = { requests: 1, inputTokens: 100, outputTokens: 50, credits: 0, unpricedTokens: 0 };

describe('the council tools: a session opened, answered and continued by id', () => {
  it('opening stops before the debate: one request, the questions open, no persona drafted', async () => {
    const { rig, log } = await opened();
    assert.equal(log.state, 'clarifying');
    assert.equal(rig.model.callCount, 1, 'only the opening request');
    assert.equal(pendingQuestions(log.snapshot).length, 2);
  });

  it('with no question to ask, the opening still stops where the debate would start', async () => {
    const { rig, log } = await opened({ questions: 0, convergeAtCycle: 1 });
    assert.equal(log.state, 'debating');
    assert.equal(log.snapshot.context.debateCycles, 0);
    assert.equal(rig.model.callCount, 1);
  });

  it('answers by question id, in the session order; a question left out becomes a logged assumption', async () => {
    const { rig, log } = await opened();
    const [first, second] = pendingQuestions(log.snapshot);
    assert.ok(first && second);
    const planned = continuationCommands(log.snapshot, {
      answers: [{ questionId: second.questionId, answer: 'About 10k users in one region' }],
    });
    assert.ok('commands' in planned);
    assert.deepEqual(planned.commands, [{ kind: 'skip' }, { kind: 'answer', text: 'About 10k users in one region' }]);
    for (const [i, command] of planned.commands.entries())
      await runCouncilTurn(log, command, rig.deps, { stopBeforeDebate: i < planned.commands.length - 1 });
    assert.equal(log.state, 'completed');
    const questions = log.snapshot.context.questions;
    assert.equal(questions.find(q => q.questionId === second.questionId)?.status, 'answered');
    assert.equal(questions.find(q => q.questionId === first.questionId)?.status, 'deferred');
    const assumption = log.snapshot.context.assumptionLog.find(a => a.relatedQuestionId === first.questionId);
    assert.ok(assumption, 'the skipped question is a logged assumption');
    const text = deliberationResultText({
      snapshot: log.snapshot,
      spent: log.spent,
      model: 'Test (why)',
      clarified: true,
    });
    assert.match(text, /Clarifying questions: 2 asked/);
    assert.match(text, /Model: Test \(why\)\./);
    assert.match(text, /Plan this .*`council_plan` with \{"sessionId":/);
  });

  it('costs what @council costs on the same question and model: the same requests and tokens', async () => {
    const script = { questions: 2, convergeAtCycle: 2 } as const;
    const chat = await councilRig({ script });
    const inChat = newCouncilSession(
      { request: 'JWT or server-side sessions?', userId: 'u', limits: LIMITS },
      chat.deps,
    );
    for (const command of [{ kind: 'retry' }, { kind: 'answer', text: 'About 10k users' }, { kind: 'skip' }] as const)
      await runCouncilTurn(inChat, command, chat.deps);
    const { rig, log } = await opened(script);
    const [first] = pendingQuestions(log.snapshot);
    const planned = continuationCommands(log.snapshot, {
      answers: [{ questionId: first?.questionId ?? '', answer: 'About 10k users' }],
    });
    assert.ok('commands' in planned);
    for (const [i, command] of planned.commands.entries())
      await runCouncilTurn(log, command, rig.deps, { stopBeforeDebate: i < planned.commands.length - 1 });
    assert.equal(inChat.state, 'completed');
    assert.equal(log.state, 'completed');
    assert.equal(log.spent.requests, inChat.spent.requests);
    assert.equal(log.spent.inputTokens, inChat.spent.inputTokens);
    assert.equal(log.spent.outputTokens, inChat.spent.outputTokens);
  });

  it('refuses an answer to a question that is not open, naming the open ones, and answers outside clarification', async () => {
    const { log } = await opened();
    const refused = continuationCommands(log.snapshot, { answers: [{ questionId: 'nope', answer: 'x' }] });
    assert.ok('refused' in refused);
    assert.match(refused.refused, /No open question has the id `nope`/);
    assert.ok(refused.refused.includes(pendingQuestions(log.snapshot)[0]?.questionId ?? '?'));
    const done = await opened({ questions: 0, convergeAtCycle: 1 });
    const late = continuationCommands(done.log.snapshot, { action: 'answer', answers: [] });
    assert.ok('refused' in late);
    assert.match(late.refused, /has no open question \(it is debating\)/);
  });

  it('maps the other actions to the chat commands; retry of a completed session does nothing', async () => {
    const { log } = await opened({ questions: 0, convergeAtCycle: 1 });
    assert.deepEqual(continuationCommands(log.snapshot, {}), { commands: [{ kind: 'retry' }] });
    assert.deepEqual(continuationCommands(log.snapshot, { action: 'extend' }), {
      commands: [{ kind: 'extend' }],
    });
    assert.deepEqual(continuationCommands(log.snapshot, { action: 'revisit' }), {
      commands: [{ kind: 'revisit' }],
    });
    assert.deepEqual(continuationCommands(log.snapshot, { action: 'more' }), { commands: [{ kind: 'more' }] });
    const { rig } = await opened({ questions: 0, convergeAtCycle: 1 });
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    assert.deepEqual(continuationCommands(log.snapshot, { action: 'retry' }), { commands: [] });
  });

  it('the report of an open session lists each question with its id and recommended answer, and the next call', async () => {
    const { log } = await opened();
    const text = clarifyingReport(log.snapshot, { model: 'Test', spent: SPENT });
    for (const q of pendingQuestions(log.snapshot)) {
      assert.ok(text.includes(`[questionId: ${q.questionId}]`), text);
      if (q.recommendedAnswer) assert.ok(text.includes(`Recommended: ${q.recommendedAnswer}`));
    }
    assert.match(text, /ONE AT A TIME/);
    assert.ok(text.includes(`{"sessionId": "${log.sessionId}", "answers": [`), text);
    assert.match(text, /@council \/open /);
    const asked = clarifyingReport(log.snapshot, {
      model: 'Test',
      spent: SPENT,
      asked: { answered: 0, skipped: 2, unavailable: true },
    });
    assert.match(asked, /could not be asked .* 2 question\(s\) skipped, each logged as an assumption/);
  });

  it('the deliberate input takes a question or a session id, never both or neither, with a message that says so', () => {
    assert.ok(DeliberationInputSchema.safeParse({ question: 'Q?' }).success);
    assert.ok(DeliberationInputSchema.safeParse({ sessionId: 's-1', action: 'extend' }).success);
    for (const bad of [{}, { question: 'Q?', sessionId: 's-1' }, { context: 'only context' }]) {
      const parsed = DeliberationInputSchema.safeParse(bad);
      assert.ok(!parsed.success);
      assert.match(parsed.error.issues[0]?.message ?? '', /either `question`.*or `sessionId`/);
    }
    assert.ok(!DeliberationInputSchema.safeParse({ sessionId: 's-1', action: 'dance' }).success);
  });

  it('every door reads a tool input the same way: the input, or what is wrong with it field by field', () => {
    assert.deepEqual(readToolInput('council_open', OpenInputSchema, { question: ' Q? ' }), {
      input: { question: 'Q?' },
    });
    const neither = readToolInput('council_deliberate', DeliberationInputSchema, undefined);
    assert.ok('malformed' in neither);
    assert.match(
      neither.malformed,
      /^council_deliberate was called with a malformed input \(nothing was run or spent\): /,
    );
    assert.match(neither.malformed, /either `question`.*or `sessionId`/);
    const empty = readToolInput('council_open', OpenInputSchema, { question: '  ' });
    assert.ok('malformed' in empty);
    assert.match(empty.malformed, /question/);
  });

  it("a session's request is the question, then the agent's context when there is any", () => {
    assert.equal(sessionRequest(' Q? ', ' Our logs. '), 'Q?\n\nContext:\nOur logs.');
    assert.equal(sessionRequest('Q?', '  '), 'Q?');
    assert.equal(sessionRequest('Q?', undefined), 'Q?');
  });

  it("every door's result for a session: its questions while open, the stop before them, else the answer", async () => {
    const { rig, log } = await opened();
    const open = sessionToolResult(log, { model: 'Test' });
    assert.equal(open, clarifyingReport(log.snapshot, { model: 'Test', spent: log.spent }));
    const stopped = sessionToolResult(log, { model: 'Test', stopped: 'The user cancelled the questions.' });
    assert.ok(stopped.startsWith('The user cancelled the questions.\n\n'), stopped);
    assert.match(stopped, /\[questionId: /, 'the questions still open are listed after the stop');
    await runCouncilTurn(log, { kind: 'skip' }, rig.deps, { stopBeforeDebate: true });
    await runCouncilTurn(log, { kind: 'skip' }, rig.deps);
    assert.equal(log.state, 'completed');
    const answered = sessionToolResult(log, { model: 'Test', estimate: { fewest: 3, most: 9 }, expected: 5 });
    assert.match(answered, /forecast: about 5 requests, at most 9/);
    assert.match(answered, /Clarifying questions: 2 asked/);
  });
});
