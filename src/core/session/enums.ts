import { z } from 'zod';

/** Where a session is in its lifecycle; also the machine's state names. */
export const SessionStatus = z.enum(['created', 'clarifying', 'debating', 'final', 'completed', 'cancelled']);
export type SessionStatus = z.infer<typeof SessionStatus>;

/** What kind of chat message a turn is. */
export const MessageType = z.enum(['question', 'answer', 'discussion', 'conclusion', 'assumption_statement']);
export type MessageType = z.infer<typeof MessageType>;

/** Where a clarification question stands: `deferred` may be revisited, `skipped` will not be. */
export const QuestionStatus = z.enum(['pending', 'answered', 'skipped', 'deferred']);
export type QuestionStatus = z.infer<typeof QuestionStatus>;

/** Where a debate cycle stands; `limit_reached` marks the cycle that hit the cycle limit (FR-016). */
export const DiscussionStatus = z.enum(['in_progress', 'concluded', 'limit_reached']);
export type DiscussionStatus = z.infer<typeof DiscussionStatus>;

/** Who takes part in a session. */
export const ParticipantType = z.enum(['user', 'persona']);
export type ParticipantType = z.infer<typeof ParticipantType>;

/** The user's confidence in an answer. */
export const Confidence = z.enum(['high', 'medium', 'low']);
export type Confidence = z.infer<typeof Confidence>;

/** Which phase a turn's round or cycle number counts. */
export const CycleType = z.enum(['clarification', 'debate']);
export type CycleType = z.infer<typeof CycleType>;
