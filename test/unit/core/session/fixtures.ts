import { strict as assert } from 'node:assert';
import { transition } from 'xstate';
import type { EventOf, PersonaStatement, SessionEvent } from '../../../../src/core/session/events';
import type { SessionInputInit } from '../../../../src/core/session/context';
import type { Participant } from '../../../../src/core/session/participants';
import { sessionMachine, type SessionSnapshot } from '../../../../src/core/session/machine';
import { explainRejection } from '../../../../src/core/session/rejection';
import { replaySession } from '../../../../src/core/session/replay';
import { sessionView } from '../../../support/sessionViews';
import { validateSession } from '../../../support/sessionValidation/validateSession';

/** Fixed clock: second `n` of 2025-01-01. */
export function at(n: number): string {
  return new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();
}

export const ARCHITECT: Participant = { participantId: 'architect', type: 'persona', name: 'Software Architect' };
export const DEVELOPER: Participant = { participantId: 'developer', type: 'persona', name: 'Senior Developer' };
export const SECURITY: Participant = { participantId: 'security', type: 'persona', name: 'Security Expert' };
export const PERSONA_NAMES: ReadonlySet<string> = new Set([ARCHITECT.name, DEVELOPER.name, SECURITY.name]);

export const INPUT: SessionInputInit = {
  sessionId: 'session-1',
  userId: 'user-1',
  requestText: 'Design a cache for the API',
  createdAt: at(0),
};

/** Sample events with fixed ids; `n` picks the timestamp. */
export const ev = {
  select: (participants: readonly Participant[] = [ARCHITECT, DEVELOPER], n = 1): EventOf<'PERSONAS_SELECTED'> => ({
    type: 'PERSONAS_SELECTED',
    selection: {
      selectionId: 'selection-1',
      requestClassification: 'architecture',
      reason: 'caching is an architecture decision',
      userOverride: false,
    },
    participants: [...participants],
    at: at(n),
  }),
  clarify: (questionIds: readonly string[], n = 2): EventOf<'CLARIFICATION_STARTED'> => ({
    type: 'CLARIFICATION_STARTED',
    questions: questionIds.map(questionId => ({
      questionId,
      question: `Question ${questionId}?`,
      targetAmbiguity: 'scope',
      askedBy: { kind: 'personas', personaIds: ['architect'] },
    })),
    at: at(n),
  }),
  more: (questionIds: readonly string[], n = 10): EventOf<'MORE_QUESTIONS_ADDED'> => ({
    type: 'MORE_QUESTIONS_ADDED',
    questions: questionIds.map(questionId => ({
      questionId,
      question: `Question ${questionId}?`,
      targetAmbiguity: 'timeline',
      askedBy: { kind: 'system' },
    })),
    at: at(n),
  }),
  debate: (n = 2): EventOf<'DEBATE_REQUESTED'> => ({ type: 'DEBATE_REQUESTED', at: at(n) }),
  answer: (answerId: string, n = 3, answer = `Answer ${answerId}`): EventOf<'QUESTION_ANSWERED'> => ({
    type: 'QUESTION_ANSWERED',
    answer: { answerId, answer },
    at: at(n),
  }),
  skip: (assumptionId: string, n = 3): EventOf<'QUESTION_SKIPPED'> => ({
    type: 'QUESTION_SKIPPED',
    assumption: { assumptionId, assumption: `Assume ${assumptionId}`, rationale: 'a common default' },
    at: at(n),
  }),
  skipRemaining: (questionIds: readonly string[], n = 4): EventOf<'REMAINING_SKIPPED'> => ({
    type: 'REMAINING_SKIPPED',
    assumptions: questionIds.map(questionId => ({
      assumptionId: `assume-${questionId}`,
      relatedQuestionId: questionId,
      assumption: `Assume ${questionId}`,
      rationale: 'a common default',
    })),
    at: at(n),
  }),
  revisit: (n = 5): EventOf<'SKIPPED_REVISITED'> => ({ type: 'SKIPPED_REVISITED', at: at(n) }),
  cycle: (
    cycleNumber: number,
    personaIds: readonly string[] = ['architect', 'developer'],
    n = 20 + cycleNumber * 5,
  ): EventOf<'CYCLE_STARTED'> => ({
    type: 'CYCLE_STARTED',
    discussionId: `discussion-${cycleNumber}`,
    cycleNumber,
    personaIds: [...personaIds],
    topic: 'Which cache to use',
    at: at(n),
  }),
  spoke: (senderId: string, n = 30, stance: Partial<PersonaStatement> = {}): EventOf<'PERSONA_SPOKE'> => ({
    type: 'PERSONA_SPOKE',
    turn: {
      senderId,
      content: `${senderId} argues`,
      position: `${senderId} position`,
      changedPosition: false,
      timestamp: at(n),
      ...stance,
    },
  }),
  conclude: (personaIds: readonly string[], converged: boolean, n = 40): EventOf<'CYCLE_CONCLUDED'> => ({
    type: 'CYCLE_CONCLUDED',
    resolutionSummary: converged ? 'The council agreed on Redis' : 'Still split between Redis and in-process',
    positions: personaIds.map(personaId => ({ personaId, position: `${personaId} position`, changedPosition: false })),
    converged,
    at: at(n),
  }),
  extend: (n = 50): EventOf<'DEBATE_EXTENDED'> => ({ type: 'DEBATE_EXTENDED', at: at(n) }),
  conclusion: (senderId: string, n = 60): EventOf<'CONCLUSION_RECORDED'> => ({
    type: 'CONCLUSION_RECORDED',
    turn: {
      senderId,
      content: `${senderId} concludes`,
      position: `${senderId} final position`,
      changedPosition: false,
      timestamp: at(n),
    },
  }),
  finalAnswer: (n = 70, finalAnswer = 'Use Redis with a 5 minute TTL.'): EventOf<'FINAL_ANSWER_READY'> => ({
    type: 'FINAL_ANSWER_READY',
    finalAnswer,
    at: at(n),
  }),
  cancel: (n = 80): EventOf<'CANCELLED'> => ({ type: 'CANCELLED', at: at(n) }),
};

/** The snapshot after the events, from INPUT (optionally with other input fields). */
export function run(events: readonly SessionEvent[], input: Partial<SessionInputInit> = {}): SessionSnapshot {
  return replaySession({ ...INPUT, ...input }, events);
}

/** Sends one event to a snapshot. */
export function send(snapshot: SessionSnapshot, event: SessionEvent): SessionSnapshot {
  return transition(sessionMachine, snapshot, event)[0];
}

/** Events of one complete debate cycle between the architect and the developer. */
export function fullCycle(cycleNumber: number, converged: boolean): SessionEvent[] {
  const base = 20 + cycleNumber * 5;
  return [
    ev.cycle(cycleNumber, undefined, base),
    ev.spoke('architect', base + 1),
    ev.spoke('developer', base + 2),
    ev.conclude(['architect', 'developer'], converged, base + 3),
  ];
}

/** Asserts the event is refused: the snapshot is unchanged and the reason mentions `reason`. */
export function assertRejected(snapshot: SessionSnapshot, event: SessionEvent, reason: RegExp): void {
  const next = send(snapshot, event);
  assert.equal(next.value, snapshot.value, 'state must not change');
  assert.deepStrictEqual(next.context, snapshot.context, 'context must not change');
  assert.equal(snapshot.can(event), false);
  assert.match(explainRejection(snapshot, event) ?? '(accepted)', reason);
}

/** Asserts the event is accepted, and returns the next snapshot. */
export function assertAccepted(snapshot: SessionSnapshot, event: SessionEvent): SessionSnapshot {
  assert.equal(explainRejection(snapshot, event), undefined, 'explainRejection must not object');
  assert.equal(snapshot.can(event), true);
  return send(snapshot, event);
}

/** Asserts the session record is valid. */
export function assertValid(snapshot: SessionSnapshot): void {
  assert.deepStrictEqual(validateSession(sessionView(snapshot), { personaNames: PERSONA_NAMES }), []);
}
