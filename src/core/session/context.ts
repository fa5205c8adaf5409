import { z } from 'zod';
import { AttachedItem } from './attachedItem';
import { SessionPrecedent } from './precedent';
import { SessionLimits } from './limits';
import { USER_DISPLAY_NAME } from './participants';
import { EntityId, Timestamp } from './primitives';
import { ConversationSession, SessionMetadata } from './session';

/** What starts a session; the orchestrator supplies the ids and time. */
export const SessionInput = z.object({
  sessionId: EntityId,
  userId: EntityId,
  requestText: z.string(),
  createdAt: Timestamp,
  limits: SessionLimits.prefault({}),
  metadata: SessionMetadata.prefault({}),
  /** Context the user attached (files, selections, tool results); optional, so older stored sessions still read. */
  attached: z.array(AttachedItem).optional(),
  /** Earlier decision records that bear on the request (absent: none found, or no records read). */
  precedent: SessionPrecedent.optional(),
});
/** A session's input with defaults applied. */
export type SessionInput = z.output<typeof SessionInput>;
/** A session's input as written by callers: limits and metadata may be left out. */
export type SessionInputInit = z.input<typeof SessionInput>;

/**
 * The machine's context: the session record without `status` (the machine's state value is the
 * status) plus `limitNotice`, set while the user must be told the debate hit its cycle limit (FR-019).
 */
export type SessionContext = Omit<ConversationSession, 'status'> & { readonly limitNotice: boolean };

/** The context of a fresh session: the user is its only participant so far. */
export function initialContext(input: SessionInput): SessionContext {
  return {
    sessionId: input.sessionId,
    userId: input.userId,
    requestText: input.requestText,
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
    limits: input.limits,
    clarificationRounds: 0,
    debateCycles: 0,
    extendedDebateRequested: false,
    participants: [{ participantId: input.userId, type: 'user', name: USER_DISPLAY_NAME }],
    questions: [],
    answers: [],
    assumptionLog: [],
    discussions: [],
    messageTurns: [],
    metadata: input.metadata,
    ...(input.attached && input.attached.length > 0 ? { attached: input.attached } : {}),
    ...(input.precedent ? { precedent: input.precedent } : {}),
    limitNotice: false,
  };
}
