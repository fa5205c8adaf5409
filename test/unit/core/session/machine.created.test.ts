import { strict as assert } from 'node:assert';
import {
  ARCHITECT,
  assertAccepted,
  assertRejected,
  assertValid,
  DEVELOPER,
  ev,
  INPUT,
  run,
  SECURITY,
} from './fixtures';

describe('session machine: created', () => {
  it('starts in created with the user as its only participant', () => {
    const snapshot = run([]);
    assert.equal(snapshot.value, 'created');
    assert.deepStrictEqual(snapshot.context.participants, [{ participantId: 'user-1', type: 'user', name: 'User' }]);
    assert.equal(snapshot.context.limits.maxClarificationRounds, 3);
    assert.equal(snapshot.context.updatedAt, INPUT.createdAt);
    assertValid(snapshot);
  });

  it('PERSONAS_SELECTED records the selection and seats the personas, staying in created', () => {
    const snapshot = assertAccepted(run([]), ev.select([ARCHITECT, DEVELOPER], 1));
    assert.equal(snapshot.value, 'created');
    assert.deepStrictEqual(snapshot.context.selection, {
      selectionId: 'selection-1',
      sessionId: 'session-1',
      requestClassification: 'architecture',
      selectedPersonaIds: ['architect', 'developer'],
      reason: 'caching is an architecture decision',
      createdAt: ev.select().at,
      userOverride: false,
    });
    assert.deepStrictEqual(
      snapshot.context.participants.map(p => p.participantId),
      ['user-1', 'architect', 'developer'],
    );
    assertValid(snapshot);
  });

  it('PERSONAS_SELECTED keeps the names a user override asked for', () => {
    const event = ev.select([SECURITY]);
    const snapshot = assertAccepted(run([]), {
      ...event,
      selection: { ...event.selection, userOverride: true, overriddenPersonas: ['Security Expert'] },
    });
    assert.equal(snapshot.context.selection?.userOverride, true);
    assert.deepStrictEqual(
      snapshot.context.selection?.userOverride === true ? snapshot.context.selection.overriddenPersonas : [],
      ['Security Expert'],
    );
  });

  it('refuses a second selection, an empty one, users, duplicates and a nameless override', () => {
    const selected = run([ev.select()]);
    assertRejected(selected, ev.select([SECURITY]), /already selected/);
    const fresh = run([]);
    assertRejected(fresh, ev.select([]), /at least one persona/);
    assertRejected(fresh, ev.select([{ participantId: 'u2', type: 'user', name: 'Other' }]), /Only personas/);
    assertRejected(fresh, ev.select([ARCHITECT, { ...DEVELOPER, participantId: 'architect' }]), /own participant id/);
    assertRejected(fresh, ev.select([ARCHITECT, { ...ARCHITECT, participantId: 'architect-2' }]), /only once/);
    assertRejected(fresh, ev.select([{ ...ARCHITECT, name: '  ' }]), /needs a name/);
    const event = ev.select();
    assertRejected(fresh, { ...event, selection: { ...event.selection, reason: ' ' } }, /why these personas/);
    assertRejected(
      fresh,
      { ...event, selection: { ...event.selection, userOverride: true, overriddenPersonas: [] } },
      /user override/,
    );
  });

  it('CLARIFICATION_STARTED opens round 1, asks the first question and makes it the one active question', () => {
    const snapshot = assertAccepted(run([ev.select()]), ev.clarify(['q1', 'q2'], 2));
    assert.equal(snapshot.value, 'clarifying');
    assert.equal(snapshot.context.clarificationRounds, 1);
    assert.deepStrictEqual(
      snapshot.context.questions.map(q => [q.questionId, q.roundNumber, q.sequenceInRound, q.status]),
      [
        ['q1', 1, 1, 'pending'],
        ['q2', 1, 2, 'pending'],
      ],
    );
    assert.equal(snapshot.context.activeQuestionId, 'q1');
    const [turn] = snapshot.context.messageTurns;
    assert.equal(turn?.messageType, 'question');
    assert.equal(turn?.messageType === 'question' ? turn.senderId : undefined, 'architect');
    assert.deepStrictEqual([turn?.sequenceNumber, turn?.turnId, turn?.sessionStatus], [1, 'session-1#1', 'clarifying']);
    assertValid(snapshot);
  });

  it('CLARIFICATION_STARTED needs seated personas and well-formed, new questions', () => {
    assertRejected(run([]), ev.clarify(['q1']), /Select the council personas first/);
    const selected = run([ev.select()]);
    assertRejected(selected, ev.clarify([]), /at least one question/);
    assertRejected(selected, ev.clarify(['q1', 'q1']), /new id/);
    const event = ev.clarify(['q1']);
    const [question] = event.questions;
    if (question === undefined) throw new Error('fixture');
    assertRejected(selected, { ...event, questions: [{ ...question, question: '' }] }, /needs its text/);
    assertRejected(selected, { ...event, questions: [{ ...question, recommendedAnswer: ' ' }] }, /recommended answer/);
    assertRejected(
      selected,
      { ...event, questions: [{ ...question, askedBy: { kind: 'personas', personaIds: ['security'] } }] },
      /Only personas on the council/,
    );
  });

  it('DEBATE_REQUESTED goes straight to debating once personas are seated', () => {
    assertRejected(run([]), ev.debate(), /Select the council personas first/);
    const snapshot = assertAccepted(run([ev.select()]), ev.debate(2));
    assert.equal(snapshot.value, 'debating');
    assert.equal(snapshot.context.updatedAt, ev.debate(2).at);
    assertValid(snapshot);
  });

  it('CANCELLED ends the session from created', () => {
    const snapshot = assertAccepted(run([]), ev.cancel());
    assert.equal(snapshot.value, 'cancelled');
    assert.equal(snapshot.status, 'done');
    assertValid(snapshot);
  });

  it('refuses events that belong to later phases', () => {
    const snapshot = run([ev.select()]);
    assertRejected(snapshot, ev.answer('a1'), /Answering a question is not possible before the council is under way/);
    assertRejected(snapshot, ev.cycle(1), /Starting a debate cycle is not possible before/);
    assertRejected(snapshot, ev.finalAnswer(), /Giving the final answer is not possible before/);
  });
});
