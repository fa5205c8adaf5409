import { z } from 'zod';

/** Where a session is in its lifecycle; also the machine's state names. */
export const SessionStatus = z.enum(['created', 'clarifying', 'debating', 'final', 'completed', 'cancelled']);
export type SessionStatus = z.infer<typeof SessionStatus>;

/** Who takes part in a session. */
export const ParticipantType = z.enum(['user', 'persona']);
export type ParticipantType = z.infer<typeof ParticipantType>;

/** The user's confidence in an answer. */
export const Confidence = z.enum(['high', 'medium', 'low']);
export type Confidence = z.infer<typeof Confidence>;
