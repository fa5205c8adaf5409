import { strict as assert } from 'node:assert';
import {
  activeQuestion,
  canAskMore,
  canExtend,
  canRevisit,
  effectiveCycleLimit,
  pendingQuestions,
} from '../../../../src/core/session/selectors';
import { lastPositions } from '../../../support/sessionViews';
import { currentDiscussion } from '../../../support/sessionViews';
import { deferredQuestions } from '../../../support/sessionViews';
import { sessionView } from '../../../support/sessionViews';
import { ev, fullCycle, run } from './fixtures';

describe('session selectors', () => {
  it('sessionView is the context with the state as status and without the UI flag', () => {
    const snapshot = run([ev.select(), ev.clarify(['q1'], 2)]);
    const view = sessionView(snapshot);
    assert.equal(view.status, 'clarifying');
    assert.equal('limitNotice' in view, false);
    assert.equal(view.activeQuestionId, 'q1');
    assert.equal(sessionView(run([])).status, 'created');
  });

  it('question selectors follow the clarification queue', () => {
    const snapshot = run([ev.select(), ev.clarify(['q1', 'q2', 'q3'], 2), ev.skip('as1', 3)]);
    assert.equal(activeQuestion(snapshot)?.questionId, 'q2');
    assert.deepStrictEqual(
      pendingQuestions(snapshot).map(q => q.questionId),
      ['q2', 'q3'],
    );
    assert.deepStrictEqual(
      deferredQuestions(snapshot).map(q => q.questionId),
      ['q1'],
    );
    assert.equal(activeQuestion(run([ev.select()])), undefined);
  });

  it('canAskMore is true while clarifying below the round limit only', () => {
    assert.equal(canAskMore(run([ev.select(), ev.clarify(['q1'], 2)])), true);
    assert.equal(
      canAskMore(run([ev.select(), ev.clarify(['q1'], 2)], { limits: { maxClarificationRounds: 1 } })),
      false,
    );
    assert.equal(canAskMore(run([ev.select(), ev.debate(2)])), false);
  });

  it('canRevisit is true while clarifying with deferred questions only', () => {
    assert.equal(canRevisit(run([ev.select(), ev.clarify(['q1', 'q2'], 2)])), false);
    assert.equal(canRevisit(run([ev.select(), ev.clarify(['q1', 'q2'], 2), ev.skip('as1', 3)])), true);
    assert.equal(canRevisit(run([ev.select(), ev.clarify(['q1'], 2), ev.skip('as1', 3)])), false, 'debating: too late');
  });

  it('canExtend and effectiveCycleLimit follow the limit and the extension', () => {
    const limits = { debateCycleLimit: 1, adminMaxDebateCycles: 3 };
    const stopped = run([ev.select(), ev.debate(2), ...fullCycle(1, false)], { limits });
    assert.equal(canExtend(stopped), true);
    assert.equal(effectiveCycleLimit(stopped), 1);
    const extended = run([ev.select(), ev.debate(2), ...fullCycle(1, false), ev.extend(50)], { limits });
    assert.equal(canExtend(extended), false);
    assert.equal(effectiveCycleLimit(extended), 3);
  });

  it('currentDiscussion and lastPositions follow the cycles', () => {
    const debating = run([ev.select(), ev.debate(2)]);
    assert.equal(currentDiscussion(debating), undefined);
    assert.deepStrictEqual(lastPositions(debating), []);
    const running = run([ev.select(), ev.debate(2), ...fullCycle(1, false), ev.cycle(2)]);
    assert.equal(currentDiscussion(running)?.cycleNumber, 2);
    assert.deepStrictEqual(lastPositions(running), [
      { personaId: 'architect', position: 'architect position', changedPosition: false },
      { personaId: 'developer', position: 'developer position', changedPosition: false },
    ]);
  });
});
