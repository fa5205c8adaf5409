import { z } from 'zod';
import { AttachedItem } from './attachedItem';
import { SessionPrecedent } from './precedent';
import { Assumption, ClarificationAnswer, ClarificationQuestion } from './clarification';
import { CouncilDiscussion } from './discussion';
import { SessionStatus } from './enums';
import { SessionLimits } from './limits';
import { Participant, PersonaSelection } from './participants';
import { EntityId, NonBlankText, Timestamp } from './primitives';
import { MessageTurn } from './turns';

/** Observability data: correlation id, feature flags, error categories. Not used by core logic. */
export const SessionMetadata = z.object({
  correlationId: z.string().optional(),
  featureFlags: z.array(z.string()).optional(),
  errorCategories: z.array(z.string()).optional(),
});
export type SessionMetadata = z.infer<typeof SessionMetadata>;

/**
 * One council session: the request, everything asked, assumed and debated, and the final answer.
 * Entities refer to each other by id (turn.senderId -> participants) instead of embedding.
 */
export const ConversationSession = z.object({
  sessionId: EntityId,
  /** Opaque VS Code user identifier; also the user participant's id. */
  userId: EntityId,
  requestText: z.string(),
  status: SessionStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  limits: SessionLimits,
  /** Clarification rounds opened so far (0-3). */
  clarificationRounds: z.number().int().min(0),
  /** Debate cycles ended so far (concluded or limit_reached). */
  debateCycles: z.number().int().min(0),
  extendedDebateRequested: z.boolean(),
  participants: z.array(Participant),
  selection: PersonaSelection.optional(),
  questions: z.array(ClarificationQuestion),
  /** The one question awaiting the user's reply; set exactly while clarifying. */
  activeQuestionId: EntityId.optional(),
  answers: z.array(ClarificationAnswer),
  assumptionLog: z.array(Assumption),
  discussions: z.array(CouncilDiscussion),
  messageTurns: z.array(MessageTurn),
  /** The consolidated answer; present exactly when the session is completed. */
  finalAnswer: NonBlankText.optional(),
  metadata: SessionMetadata,
  /** Context the user attached to the session's requests, bounded and fenced as data in every prompt. */
  attached: z.array(AttachedItem).optional(),
  /** The team's earlier decision records given to the council as precedent. */
  precedent: SessionPrecedent.optional(),
});
export type ConversationSession = z.infer<typeof ConversationSession>;
