import { strict as assert } from 'node:assert';
import { activeAssumptions, activeQuestion, pendingQuestions } from '../../../../src/core/session/selectors';
import { deferredQuestions } from '../../../support/sessionViews';
import { assertAccepted, assertRejected, assertValid, ev, run } from './fixtures';

const clarifying = () => run([ev.select(), ev.clarify(['q1', 'q2'], 2)]);

describe('session machine: clarifying', () => {
  it('QUESTION_ANSWERED answers the active question and asks the next one', () => {
    const snapshot = assertAccepted(clarifying(), ev.answer('a1', 3, 'Only the read path'));
    assert.equal(snapshot.value, 'clarifying');
    assert.deepStrictEqual(snapshot.context.questions[0], {
      ...snapshot.context.questions[0],
      status: 'answered',
      answerId: 'a1',
      answeredAt: ev.answer('a1', 3).at,
    });
    assert.deepStrictEqual(snapshot.context.answers, [
      {
        answerId: 'a1',
        questionId: 'q1',
        sessionId: 'session-1',
        answer: 'Only the read path',
        skipCommand: false,
        createdAt: ev.answer('a1', 3).at,
      },
    ]);
    assert.equal(activeQuestion(snapshot)?.questionId, 'q2');
    assert.deepStrictEqual(
      snapshot.context.messageTurns.map(t => [
        t.sequenceNumber,
        t.messageType,
        'senderId' in t ? t.senderId : undefined,
      ]),
      [
        [1, 'question', 'architect'],
        [2, 'answer', 'user-1'],
        [3, 'question', 'architect'],
      ],
    );
    assertValid(snapshot);
  });

  it('answering the last pending question moves the council to debating', () => {
    const snapshot = run([ev.select(), ev.clarify(['q1', 'q2'], 2), ev.answer('a1', 3), ev.answer('a2', 4)]);
    assert.equal(snapshot.value, 'debating');
    assert.equal(snapshot.context.activeQuestionId, undefined);
    assert.deepStrictEqual(pendingQuestions(snapshot), []);
    assertValid(snapshot);
  });

  it('refuses a blank or repeated answer', () => {
    assertRejected(clarifying(), ev.answer('a1', 3, '   '), /cannot be empty.*skip/);
    const answered = run([ev.select(), ev.clarify(['q1', 'q2'], 2), ev.answer('a1', 3)]);
    assertRejected(answered, ev.answer('a1', 4), /already recorded/);
  });

  it('QUESTION_SKIPPED defers the active question, logs the assumption with a statement turn, and asks the next one', () => {
    const snapshot = assertAccepted(clarifying(), ev.skip('as1', 3));
    assert.equal(snapshot.context.questions[0]?.status, 'deferred');
    assert.deepStrictEqual(snapshot.context.assumptionLog, [
      {
        assumptionId: 'as1',
        sessionId: 'session-1',
        relatedQuestionId: 'q1',
        assumption: 'Assume as1',
        rationale: 'a common default',
        addedAt: ev.skip('as1', 3).at,
      },
    ]);
    const statement = snapshot.context.messageTurns[1];
    assert.deepStrictEqual([statement?.messageType, statement?.content], ['assumption_statement', 'Assume as1']);
    assert.equal(activeQuestion(snapshot)?.questionId, 'q2');
    assertValid(snapshot);
  });

  it('skipping the last question also moves to debating, keeping it deferred', () => {
    const snapshot = run([ev.select(), ev.clarify(['q1'], 2), ev.skip('as1', 3)]);
    assert.equal(snapshot.value, 'debating');
    assert.deepStrictEqual(
      deferredQuestions(snapshot).map(q => q.questionId),
      ['q1'],
    );
    assertValid(snapshot);
  });

  it('refuses a skip without a usable assumption', () => {
    const skip = ev.skip('as1');
    assertRejected(
      clarifying(),
      { ...skip, assumption: { ...skip.assumption, rationale: '' } },
      /assumption the council will make/,
    );
    const skipped = run([ev.select(), ev.clarify(['q1', 'q2'], 2), ev.skip('as1', 3)]);
    assertRejected(skipped, ev.skip('as1', 4), /new id/);
  });

  it('REMAINING_SKIPPED skips every pending question with its assumption and goes to final', () => {
    const snapshot = assertAccepted(clarifying(), ev.skipRemaining(['q2', 'q1'], 4));
    assert.equal(snapshot.value, 'final');
    assert.deepStrictEqual(
      snapshot.context.questions.map(q => q.status),
      ['skipped', 'skipped'],
    );
    assert.equal(snapshot.context.activeQuestionId, undefined);
    assert.deepStrictEqual(
      snapshot.context.messageTurns.filter(t => t.messageType === 'assumption_statement').map(t => t.content),
      ['Assume q1', 'Assume q2'],
      'statements follow question order',
    );
    assertValid(snapshot);
  });

  it('REMAINING_SKIPPED needs exactly one assumption per pending question', () => {
    assertRejected(clarifying(), ev.skipRemaining(['q1'], 4), /exactly one assumption for each/);
    assertRejected(clarifying(), ev.skipRemaining(['q1', 'q2', 'q2'], 4), /exactly one assumption for each/);
    const answered = run([ev.select(), ev.clarify(['q1', 'q2'], 2), ev.answer('a1', 3)]);
    assertRejected(answered, ev.skipRemaining(['q1', 'q2'], 4), /exactly one assumption for each/);
  });

  it('MORE_QUESTIONS_ADDED opens another round after the current questions', () => {
    const snapshot = assertAccepted(clarifying(), ev.more(['q3'], 3));
    assert.equal(snapshot.value, 'clarifying');
    assert.equal(snapshot.context.clarificationRounds, 2);
    assert.deepStrictEqual(
      pendingQuestions(snapshot).map(q => [q.questionId, q.roundNumber, q.sequenceInRound]),
      [
        ['q1', 1, 1],
        ['q2', 1, 2],
        ['q3', 2, 1],
      ],
    );
    assert.equal(activeQuestion(snapshot)?.questionId, 'q1', 'the active question stays active');
    assertValid(snapshot);
  });

  it('canStartAnotherRound: refuses a fourth round, and a second one when the limit is 1', () => {
    const three = run([ev.select(), ev.clarify(['q1'], 2), ev.more(['q2'], 3), ev.more(['q3'], 4)]);
    assert.equal(three.context.clarificationRounds, 3);
    assertRejected(
      three,
      ev.more(['q4'], 5),
      /^Clarification is limited to 3 rounds; the council will proceed on the answers so far\.$/,
    );
    const single = run([ev.select(), ev.clarify(['q1'], 2)], { limits: { maxClarificationRounds: 1 } });
    assertRejected(single, ev.more(['q2'], 3), /limited to 1 round;/);
  });

  it('MORE_QUESTIONS_ADDED refuses reused question ids', () => {
    assertRejected(clarifying(), ev.more(['q1'], 3), /new id/);
  });

  it('SKIPPED_REVISITED re-queues deferred questions right after the active one', () => {
    const skipped = run([ev.select(), ev.clarify(['q1', 'q2', 'q3'], 2), ev.skip('as1', 3)]);
    const snapshot = assertAccepted(skipped, ev.revisit(4));
    assert.deepStrictEqual(
      pendingQuestions(snapshot).map(q => q.questionId),
      ['q1', 'q2', 'q3'],
    );
    assert.equal(activeQuestion(snapshot)?.questionId, 'q2');
    const next = run([
      ev.select(),
      ev.clarify(['q1', 'q2', 'q3'], 2),
      ev.skip('as1', 3),
      ev.revisit(4),
      ev.answer('a2', 5),
    ]);
    assert.equal(activeQuestion(next)?.questionId, 'q1', 'the revisited question is asked next');
    assertValid(next);
  });

  it('answering a revisited question withdraws its assumption but keeps it in the log', () => {
    const snapshot = run([
      ev.select(),
      ev.clarify(['q1', 'q2'], 2),
      ev.skip('as1', 3),
      ev.revisit(4),
      ev.answer('a2', 5),
      ev.answer('a1', 6),
    ]);
    assert.equal(snapshot.value, 'debating');
    assert.deepStrictEqual(snapshot.context.assumptionLog[0]?.withdrawal, {
      reason: 'answered',
      answerId: 'a1',
      at: ev.answer('a1', 6).at,
    });
    assert.deepStrictEqual(activeAssumptions(snapshot), []);
    assertValid(snapshot);
  });

  it('skipping a revisited question again supersedes the earlier assumption', () => {
    const snapshot = run([
      ev.select(),
      ev.clarify(['q1', 'q2'], 2),
      ev.skip('as1', 3),
      ev.revisit(4),
      ev.answer('a2', 5),
      ev.skip('as2', 6),
    ]);
    assert.deepStrictEqual(snapshot.context.assumptionLog[0]?.withdrawal, {
      reason: 'superseded',
      assumptionId: 'as2',
      at: ev.skip('as2', 6).at,
    });
    assert.deepStrictEqual(
      activeAssumptions(snapshot).map(a => a.assumptionId),
      ['as2'],
    );
    assertValid(snapshot);
  });

  it('hasDeferredQuestions: refuses a revisit when nothing was skipped', () => {
    assertRejected(clarifying(), ev.revisit(), /no skipped questions to revisit/);
  });

  it('CANCELLED from clarifying leaves no question active', () => {
    const snapshot = assertAccepted(clarifying(), ev.cancel(5));
    assert.equal(snapshot.value, 'cancelled');
    assert.equal(snapshot.context.activeQuestionId, undefined);
    assertValid(snapshot);
  });

  it('refuses selection and debate events while clarifying', () => {
    assertRejected(
      clarifying(),
      ev.select(),
      /Selecting personas is not possible while clarification questions are open/,
    );
    assertRejected(clarifying(), ev.cycle(1), /Starting a debate cycle is not possible while clarification/);
  });
});
