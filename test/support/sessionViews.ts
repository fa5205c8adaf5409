import type { ClarificationQuestion } from '../../src/core/session/clarification';
import type { CouncilDiscussion } from '../../src/core/session/discussion';
import type { SessionSnapshot } from '../../src/core/session/machine';
import { findCurrentDiscussion, findDeferredQuestions } from '../../src/core/session/queries';
import type { ConversationSession } from '../../src/core/session/session';
import type { PersonaPosition } from '../../src/core/session/stance';

/*
 * Views of a session that only tests read: the spec's session record and a few of its parts, for asserting on
 * what the machine did. The extension reads the session through src/core/session/selectors.ts.
 */

/** Questions skipped for now that the user may revisit. */
export function deferredQuestions(snapshot: SessionSnapshot): readonly ClarificationQuestion[] {
  return findDeferredQuestions(snapshot.context);
}

/** The debate cycle in progress, if any. */
export function currentDiscussion(snapshot: SessionSnapshot): CouncilDiscussion | undefined {
  return findCurrentDiscussion(snapshot.context);
}

/** Each persona's position at the end of the most recent finished cycle (empty before any). */
export function lastPositions(snapshot: SessionSnapshot): readonly PersonaPosition[] {
  const ended = snapshot.context.discussions.filter(d => d.status !== 'in_progress').at(-1);
  return ended?.status === 'concluded' || ended?.status === 'limit_reached' ? ended.positions : [];
}

/** The session record: the machine's context with `status` = the machine's state. */
export function sessionView(snapshot: SessionSnapshot): ConversationSession {
  const { limitNotice: _notice, ...session } = snapshot.context;
  return { ...session, status: snapshot.value };
}
