import { z } from 'zod';
import { EntityId, NonBlankText, Timestamp } from './primitives';
import { PersonaPosition } from './stance';

const discussionFields = z.object({
  discussionId: EntityId,
  sessionId: EntityId,
  cycleNumber: z.number().int().min(1),
  /** Participant ids of the personas debating in this cycle. */
  participatingPersonaIds: z.array(EntityId).min(1),
  exchangeStarts: Timestamp,
  /** What is being debated. */
  topic: NonBlankText,
  /** Ids of this cycle's `discussion` turns, in order. */
  messageTurnIds: z.array(EntityId),
});

const outcomeFields = {
  exchangeEnds: Timestamp,
  /** How disagreements were resolved; required once the cycle ends. */
  resolutionSummary: NonBlankText,
  /** Each participating persona's position at the end of the cycle. */
  positions: z.array(PersonaPosition),
};

/** Seated personas who did not speak in the cycle (a failed request, or one the spending limit refused), and why. */
const absentField = z.array(z.object({ personaId: EntityId, reason: z.string() })).optional();

/** One debate cycle: every participating persona speaks once, then the cycle concludes. */
export const CouncilDiscussion = z.discriminatedUnion('status', [
  discussionFields.extend({ status: z.literal('in_progress') }),
  discussionFields.extend({
    status: z.literal('concluded'),
    ...outcomeFields,
    converged: z.boolean(),
    /** The request budget left no room for another cycle, so the council concluded here (told to the user). */
    stoppedByBudget: z.literal(true).optional(),
    /** Nobody moved its vote or position in this cycle, so the council concluded here. */
    stoppedByStableVote: z.literal(true).optional(),
    /** The first drafts all backed one option with enough confidence, so no debate cycle followed (`/extend` starts one). */
    settledByFirstVote: z.literal(true).optional(),
    absent: absentField,
  }),
  /** The cycle that hit the cycle limit without convergence (FR-016); the user is told (FR-019). */
  discussionFields.extend({
    status: z.literal('limit_reached'),
    ...outcomeFields,
    converged: z.literal(false),
    absent: absentField,
  }),
]);
export type CouncilDiscussion = z.infer<typeof CouncilDiscussion>;

/** A discussion that has ended (concluded or stopped by the limit). */
export type EndedDiscussion = Exclude<CouncilDiscussion, { status: 'in_progress' }>;
