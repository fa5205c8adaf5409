import { strict as assert } from 'node:assert';
import { canExtend, effectiveCycleLimit, limitNotice } from '../../../../src/core/session/selectors';
import { checks } from '../../../../src/core/session/guards';
import { explainRejection } from '../../../../src/core/session/rejection';
import { assertAccepted, assertRejected, assertValid, ev, fullCycle, run } from './fixtures';

const LIMITS = { debateCycleLimit: 1, adminMaxDebateCycles: 2 };
const atLimit = () => run([ev.select(), ev.debate(2), ...fullCycle(1, false)], { limits: LIMITS });
const converged = () => run([ev.select(), ev.debate(2), ...fullCycle(1, true)]);

describe('session machine: final and completed', () => {
  it('CONCLUSION_RECORDED adds each persona conclusion once', () => {
    const snapshot = assertAccepted(converged(), ev.conclusion('architect'));
    const turn = snapshot.context.messageTurns.at(-1);
    assert.deepStrictEqual(
      [turn?.messageType, turn?.sessionStatus, turn?.content],
      ['conclusion', 'final', 'architect concludes'],
    );
    assertRejected(snapshot, ev.conclusion('architect', 61), /one conclusion/);
    assertRejected(snapshot, ev.conclusion('user-1', 61), /Only personas/);
    assertRejected(
      snapshot,
      { ...ev.conclusion('developer'), turn: { ...ev.conclusion('developer').turn, content: '' } },
      /cannot be empty/,
    );
    assertValid(assertAccepted(snapshot, ev.conclusion('developer', 61)));
  });

  it('FINAL_ANSWER_READY completes the session with its answer', () => {
    const snapshot = assertAccepted(
      run([ev.select(), ev.debate(2), ...fullCycle(1, true), ev.conclusion('architect')]),
      ev.finalAnswer(70),
    );
    assert.equal(snapshot.value, 'completed');
    assert.equal(snapshot.context.finalAnswer, 'Use Redis with a 5 minute TTL.');
    assert.equal(snapshot.status, 'active', 'completed can still be reopened by an extension');
    assertValid(snapshot);
  });

  it('finalAnswerIsReady: refuses a blank answer, and completion before anything was said', () => {
    assertRejected(converged(), ev.finalAnswer(70, '  '), /cannot be empty/);
    // The machine cannot reach final without turns, so the second rule is checked on a doctored context.
    const silent = { ...converged().context, messageTurns: [] };
    assert.match(checks.finalAnswerIsReady(silent, ev.finalAnswer(70)) ?? '', /nothing to conclude/);
    assert.equal(checks.finalAnswerIsReady(converged().context, ev.finalAnswer(70)), undefined);
  });

  it('canExtendDebate: after the limit, DEBATE_EXTENDED reopens the debate up to the admin maximum', () => {
    const stopped = atLimit();
    assert.equal(stopped.value, 'final');
    assert.equal(canExtend(stopped), true);
    const extended = assertAccepted(stopped, ev.extend(50));
    assert.equal(extended.value, 'debating');
    assert.equal(extended.context.extendedDebateRequested, true);
    assert.equal(limitNotice(extended), false);
    assert.equal(effectiveCycleLimit(extended), 2);
    assertValid(extended);

    const second = run([ev.select(), ev.debate(2), ...fullCycle(1, false), ev.extend(50), ...fullCycle(2, false)], {
      limits: LIMITS,
    });
    assert.equal(second.value, 'final');
    assert.equal(second.context.discussions[1]?.status, 'limit_reached');
    assert.equal(canExtend(second), false);
    assertRejected(second, ev.extend(60), /maximum of 2 cycles/);
    assertValid(second);
  });

  it('canExtendDebate refuses when the council converged, and when the admin maximum equals the limit', () => {
    assertRejected(converged(), ev.extend(), /only be extended after it reached its cycle limit/);
    const capped = run([ev.select(), ev.debate(2), ...fullCycle(1, false)], {
      limits: { debateCycleLimit: 1, adminMaxDebateCycles: 1 },
    });
    assertRejected(capped, ev.extend(), /maximum of 1 cycles/);
  });

  it('DEBATE_EXTENDED from completed reopens the session and sets the old answer aside', () => {
    const completed = run([ev.select(), ev.debate(2), ...fullCycle(1, false), ev.finalAnswer(45)], { limits: LIMITS });
    assert.equal(completed.value, 'completed');
    assert.equal(limitNotice(completed), true, 'the answer must tell the user the limit stopped the debate');
    const reopened = assertAccepted(completed, ev.extend(50));
    assert.equal(reopened.value, 'debating');
    assert.equal(reopened.context.finalAnswer, undefined);
    assertValid(reopened);
    const again = run(
      [
        ev.select(),
        ev.debate(2),
        ...fullCycle(1, false),
        ev.finalAnswer(45),
        ev.extend(50),
        ...fullCycle(2, true),
        ev.conclusion('architect', 61),
        ev.finalAnswer(70),
      ],
      { limits: LIMITS },
    );
    assert.equal(again.value, 'completed');
    assertValid(again);
  });

  it('a completed session refuses everything else, and a cancelled one refuses everything', () => {
    const completed = run([ev.select(), ev.debate(2), ...fullCycle(1, true), ev.finalAnswer(70)]);
    assertRejected(completed, ev.cancel(), /session is complete/);
    assertRejected(completed, ev.cycle(2), /session is complete/);
    const cancelled = run([ev.select(), ev.cancel(3)]);
    assertRejected(cancelled, ev.debate(4), /was cancelled/);
    assert.equal(
      explainRejection(cancelled, ev.cancel(5)),
      'This session was cancelled; start a new request to continue.',
    );
  });

  it('CANCELLED from final', () => {
    const snapshot = assertAccepted(converged(), ev.cancel());
    assert.equal(snapshot.value, 'cancelled');
    assertValid(snapshot);
  });
});
