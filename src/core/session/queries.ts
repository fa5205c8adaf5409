import { compareQuestions, type ClarificationQuestion } from './clarification';
import type { CouncilDiscussion } from './discussion';
import type { Participant } from './participants';
import type { ConversationSession } from './session';

/*
 * Read-only questions about a session, shared by the machine's guards and updates, the
 * selectors and validation. They accept the machine context and the session record alike.
 */

/** A session with or without its status: what the machine context and the session record share. */
export type SessionState = Omit<ConversationSession, 'status'>;

/** The question awaiting the user's reply, if any. */
export function findActiveQuestion(session: SessionState): ClarificationQuestion | undefined {
  return session.activeQuestionId === undefined
    ? undefined
    : session.questions.find(question => question.questionId === session.activeQuestionId);
}

/** Pending questions in the order they will be asked (round, then position in round). */
export function findPendingQuestions(session: SessionState): readonly ClarificationQuestion[] {
  return session.questions.filter(question => question.status === 'pending').sort(compareQuestions);
}

/** Questions skipped for now that may be asked again. */
export function findDeferredQuestions(session: SessionState): readonly ClarificationQuestion[] {
  return session.questions.filter(question => question.status === 'deferred').sort(compareQuestions);
}

/** The persona participants, in the order they joined. */
export function findPersonas(session: SessionState): readonly Participant[] {
  return session.participants.filter(participant => participant.type === 'persona');
}

/** Whether the id names a persona participant of the session. */
export function isPersonaId(session: SessionState, participantId: string): boolean {
  return session.participants.some(
    participant => participant.participantId === participantId && participant.type === 'persona',
  );
}

/** The most recent debate cycle, whatever its status. */
export function findLastDiscussion(session: SessionState): CouncilDiscussion | undefined {
  return session.discussions.at(-1);
}

/** The debate cycle in progress, if any. */
export function findCurrentDiscussion(
  session: SessionState,
): Extract<CouncilDiscussion, { status: 'in_progress' }> | undefined {
  const last = findLastDiscussion(session);
  return last?.status === 'in_progress' ? last : undefined;
}

/** Participant ids of the personas that already spoke in a discussion. */
export function spokenPersonaIds(session: SessionState, discussion: CouncilDiscussion): ReadonlySet<string> {
  const ids = new Set(discussion.messageTurnIds);
  const speakers = session.messageTurns.flatMap(turn =>
    ids.has(turn.turnId) && turn.messageType === 'discussion' ? [turn.senderId] : [],
  );
  return new Set(speakers);
}
