import * as assert from 'node:assert/strict';
import { newCouncilSession } from '../../../../src/core/council/councilTurn';
import { advanceSession, type AskQuestion, type QuestionReply } from '../../../../src/core/council/toolSessionRun';
import { LanguageModelFailure } from '../../../../src/core/llm/languageModel';
import { pendingQuestions } from '../../../../src/core/session/selectors';
import { councilResponder, councilRig } from '../../../support/councilHarness';
import { ANSWER_STEP, type CouncilScriptOptions } from '../../../support/councilScript';

const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 3, adminMaxDebateCycles: 10 };
const RETRY = [{ kind: 'retry' }] as const;

async function session(script: CouncilScriptOptions, fail?: (step: string) => Error | undefined) {
  const rig = await councilRig({
    responder: councilResponder(script, step => {
      const error = fail?.(step);
      return error ? { kind: 'error', error } : undefined;
    }),
  });
  const log = newCouncilSession({ request: 'JWT or server-side sessions?', userId: 'agent', limits: LIMITS }, rig.deps);
  return { rig, log };
}

/** A door that answers each question with `replies` in turn, recording what it was asked. */
function asking(...replies: QuestionReply[]) {
  const asked: string[] = [];
  return {
    asked,
    ask: ((_question, position, total) => {
      asked.push(`${position}/${total}`);
      return Promise.resolve(replies.shift() ?? { kind: 'skipped', unavailable: false });
    }) satisfies AskQuestion,
  };
}

describe('a tool call on a session, the same from every door (advanceSession)', () => {
  it('opens, asks each question one at a time and stops before the debate when told to', async () => {
    const { rig, log } = await session({ questions: 2, convergeAtCycle: 1 });
    const door = asking({ kind: 'answered', command: { kind: 'answer', text: 'About 10k users' } });
    const advanced = await advanceSession(log, RETRY, rig.deps, { stopBeforeDebate: true, ask: door.ask });
    assert.deepEqual(door.asked, ['1/2', '2/2']);
    assert.deepEqual(advanced, { asked: { answered: 1, skipped: 1, unavailable: false } });
    assert.equal(log.state, 'debating');
    assert.equal(log.snapshot.context.debateCycles, 0, 'no debate before its own confirmation');
  });

  it('goes on to the answer after the last reply when not told to stop before the debate', async () => {
    const { rig, log } = await session({ questions: 1, convergeAtCycle: 1 });
    const door = asking({ kind: 'answered', command: { kind: 'accept' } });
    const advanced = await advanceSession(log, RETRY, rig.deps, { stopBeforeDebate: false, ask: door.ask });
    assert.equal(advanced.stopped, undefined);
    assert.equal(log.state, 'completed');
  });

  it('a cancelled question stops the asking with the questions open; nobody available is a skip, said so', async () => {
    const { rig, log } = await session({ questions: 2, convergeAtCycle: 1 });
    const door = asking({ kind: 'skipped', unavailable: true }, { kind: 'cancelled' });
    const advanced = await advanceSession(log, RETRY, rig.deps, { stopBeforeDebate: false, ask: door.ask });
    assert.match(advanced.stopped ?? '', /cancelled the clarifying questions/);
    assert.deepEqual(advanced.asked, { answered: 0, skipped: 1, unavailable: true });
    assert.equal(log.state, 'clarifying');
    assert.equal(pendingQuestions(log.snapshot).length, 1);
  });

  it('without a way to ask, the questions are left for the agent', async () => {
    const { rig, log } = await session({ questions: 2, convergeAtCycle: 1 });
    assert.deepEqual(await advanceSession(log, RETRY, rig.deps, { stopBeforeDebate: false }), {});
    assert.equal(pendingQuestions(log.snapshot).length, 2);
  });

  it("the answer's own request failing gives the answer from the vote and the retry call", async () => {
    const { rig, log } = await session({ questions: 0, convergeAtCycle: 1, decisionOptions: true }, step =>
      step === ANSWER_STEP ? new LanguageModelFailure('unknown', 'Service unavailable.') : undefined,
    );
    const advanced = await advanceSession(log, RETRY, rig.deps, { stopBeforeDebate: false });
    assert.match(advanced.fromVote ?? '', /^_Written from the vote;/);
    assert.match(
      advanced.stopped ?? '',
      /own request failed: Service unavailable\. The session is saved; `council_deliberate` .*"retry"/,
    );
  });

  it('a model failure is said as the chat says it; anything else is an internal stop for the door to log', async () => {
    const blocked = await session({ questions: 0 }, step =>
      step === 'open_session' ? new LanguageModelFailure('blocked', 'Rate limited') : undefined,
    );
    const failed = await advanceSession(blocked.log, RETRY, blocked.rig.deps, { stopBeforeDebate: false });
    assert.doesNotMatch(failed.stopped ?? '', /own request failed|internal problem/);
    assert.match(failed.stopped ?? '', /The session is saved; `council_deliberate`/);
    assert.equal(failed.internal, undefined);
    const broken = await session({ questions: 0 });
    const deps = { ...broken.rig.deps, persist: () => Promise.reject(new Error('a bug')) };
    const internal = await advanceSession(broken.log, RETRY, deps, { stopBeforeDebate: false });
    assert.match(internal.stopped ?? '', /internal problem/);
    assert.match(internal.internal?.detail ?? '', /a bug/);
  });
});
