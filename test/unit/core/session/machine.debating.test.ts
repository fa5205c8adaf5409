import { strict as assert } from 'node:assert';
import { effectiveCycleLimit, limitNotice } from '../../../../src/core/session/selectors';
import { lastPositions } from '../../../support/sessionViews';
import { currentDiscussion } from '../../../support/sessionViews';
import {
  ARCHITECT,
  assertAccepted,
  assertRejected,
  assertValid,
  DEVELOPER,
  ev,
  fullCycle,
  run,
  SECURITY,
} from './fixtures';

const debating = (limits = {}) => run([ev.select(), ev.debate(2)], { limits });

describe('session machine: debating', () => {
  it('CYCLE_STARTED opens the next cycle in progress', () => {
    const snapshot = assertAccepted(debating(), ev.cycle(1));
    assert.deepStrictEqual(currentDiscussion(snapshot), {
      discussionId: 'discussion-1',
      sessionId: 'session-1',
      cycleNumber: 1,
      participatingPersonaIds: ['architect', 'developer'],
      exchangeStarts: ev.cycle(1).at,
      topic: 'Which cache to use',
      messageTurnIds: [],
      status: 'in_progress',
    });
    assertValid(snapshot);
  });

  it('refuses a cycle out of sequence, while one runs, without a topic, or with strangers', () => {
    assertRejected(debating(), ev.cycle(2), /next debate cycle is number 1/);
    const running = run([ev.select(), ev.debate(2), ev.cycle(1)]);
    assertRejected(running, ev.cycle(2), /cycle 1 is still in progress/);
    assertRejected(debating(), { ...ev.cycle(1), topic: '' }, /needs a topic/);
    assertRejected(debating(), ev.cycle(1, ['architect', 'security']), /Only personas on the council can debate/);
    assertRejected(debating(), ev.cycle(1, ['architect', 'architect']), /each named once/);
  });

  it('a debate needs two personas when the council has them, but a one-persona council may debate alone', () => {
    assertRejected(debating(), ev.cycle(1, ['architect']), /at least two personas/);
    const solo = run([ev.select([SECURITY]), ev.debate(2)]);
    assertAccepted(solo, ev.cycle(1, ['security']));
  });

  it('PERSONA_SPOKE records a discussion turn with its stance and lists it in the cycle', () => {
    const snapshot = assertAccepted(
      run([ev.select(), ev.debate(2), ev.cycle(1)]),
      ev.spoke('developer', 26, { changedPosition: true, changeReason: 'the architect showed the latency numbers' }),
    );
    const turn = snapshot.context.messageTurns.at(-1);
    assert.deepStrictEqual(turn, {
      messageType: 'discussion',
      senderId: 'developer',
      content: 'developer argues',
      timestamp: ev.spoke('developer', 26).turn.timestamp,
      position: 'developer position',
      changedPosition: true,
      changeReason: 'the architect showed the latency numbers',
      discussionId: 'discussion-1',
      sessionStatus: 'debating',
      relatedCycleOrRound: { cycleType: 'debate', number: 1 },
      turnId: 'session-1#1',
      sessionId: 'session-1',
      sequenceNumber: 1,
    });
    assert.deepStrictEqual(currentDiscussion(snapshot)?.messageTurnIds, ['session-1#1']);
    assertValid(snapshot);
  });

  it('personaMaySpeak: once per cycle, only cycle members, only during a cycle, and a changed position says why', () => {
    assertRejected(debating(), ev.spoke('architect'), /No debate cycle is in progress/);
    const running = run([ev.select([ARCHITECT, DEVELOPER, SECURITY]), ev.debate(2), ev.cycle(1)]);
    assertRejected(running, ev.spoke('security'), /not part of this debate cycle/);
    const spoke = run([ev.select(), ev.debate(2), ev.cycle(1), ev.spoke('architect', 26)]);
    assertRejected(spoke, ev.spoke('architect', 27), /speaks once per debate cycle/);
    assertRejected(spoke, ev.spoke('developer', 27, { changedPosition: true }), /must say why/);
    assertRejected(spoke, ev.spoke('developer', 27, { content: ' ' }), /cannot be empty/);
  });

  it('CYCLE_CONCLUDED without convergence ends the cycle and keeps debating', () => {
    const snapshot = run([ev.select(), ev.debate(2), ...fullCycle(1, false)]);
    assert.equal(snapshot.value, 'debating');
    assert.equal(snapshot.context.debateCycles, 1);
    const [discussion] = snapshot.context.discussions;
    assert.equal(discussion?.status, 'concluded');
    assert.equal(
      discussion?.status === 'concluded' ? discussion.resolutionSummary : '',
      'Still split between Redis and in-process',
    );
    assert.deepStrictEqual(
      lastPositions(snapshot).map(p => p.personaId),
      ['architect', 'developer'],
    );
    assert.equal(limitNotice(snapshot), false);
    assertValid(snapshot);
  });

  it('councilConverged: a converged cycle ends the debate', () => {
    const snapshot = run([ev.select(), ev.debate(2), ...fullCycle(1, true)]);
    assert.equal(snapshot.value, 'final');
    assert.equal(snapshot.context.discussions[0]?.status, 'concluded');
    assertValid(snapshot);
  });

  it('cycleLimitReached: the last allowed unconverged cycle is marked limit_reached and the user is told', () => {
    const snapshot = run([ev.select(), ev.debate(2), ...fullCycle(1, false), ...fullCycle(2, false)], {
      limits: { debateCycleLimit: 2 },
    });
    assert.equal(snapshot.value, 'final');
    assert.equal(snapshot.context.discussions[1]?.status, 'limit_reached');
    assert.equal(limitNotice(snapshot), true);
    assertValid(snapshot);
  });

  it('cycleWithinLimit: no cycle past the default limit of 10', () => {
    const events = [ev.select(), ev.debate(2), ...Array.from({ length: 10 }, (_, i) => fullCycle(i + 1, false)).flat()];
    const snapshot = run(events);
    assert.equal(snapshot.value, 'final');
    assert.equal(snapshot.context.debateCycles, 10);
    assert.equal(effectiveCycleLimit(snapshot), 10);
    assertValid(snapshot);
  });

  it('cycleWithinLimit refuses a cycle number beyond the limit (even when it is also out of sequence)', () => {
    assertRejected(debating({ debateCycleLimit: 1 }), ev.cycle(2), /limited to 1 cycles/);
  });

  it('cycleIsComplete: everyone speaks, a summary, and one position per persona', () => {
    const running = run([ev.select(), ev.debate(2), ev.cycle(1), ev.spoke('architect', 26)]);
    assertRejected(running, ev.conclude(['architect', 'developer'], true), /once every persona in it has spoken/);
    const spoken = run([ev.select(), ev.debate(2), ev.cycle(1), ev.spoke('architect', 26), ev.spoke('developer', 27)]);
    assertRejected(
      spoken,
      { ...ev.conclude(['architect', 'developer'], true), resolutionSummary: ' ' },
      /resolution summary/,
    );
    assertRejected(spoken, ev.conclude(['architect'], true), /one position for each persona/);
    assertRejected(spoken, ev.conclude(['architect', 'architect'], true), /one position for each persona/);
    const conclude = ev.conclude(['architect', 'developer'], true);
    const [first, second] = conclude.positions;
    if (first === undefined || second === undefined) throw new Error('fixture');
    assertRejected(spoken, { ...conclude, positions: [{ ...first, changedPosition: true }, second] }, /must say why/);
    assertRejected(debating(), conclude, /No debate cycle is in progress/);
  });

  it('CANCELLED from debating keeps the unfinished cycle on record', () => {
    const snapshot = assertAccepted(run([ev.select(), ev.debate(2), ev.cycle(1)]), ev.cancel());
    assert.equal(snapshot.value, 'cancelled');
    assert.equal(snapshot.context.discussions[0]?.status, 'in_progress');
    assertValid(snapshot);
  });

  it('refuses clarification events while debating', () => {
    assertRejected(debating(), ev.answer('a1'), /Answering a question is not possible while the council is debating/);
    assertRejected(
      debating(),
      ev.conclusion('architect'),
      /Recording a conclusion is not possible while the council is debating/,
    );
  });
});
