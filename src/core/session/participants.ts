import { z } from 'zod';
import { ParticipantType } from './enums';
import { EntityId, NonBlankText, Timestamp } from './primitives';
import { DecisionOption } from './decisionOptions';
import { DEBATE_OUTLOOKS } from './debateOutlook';

/** Display name of the one user participant. */
export const USER_DISPLAY_NAME = 'User';

/** An actor in the session: the user, or a persona named after its council persona contract. */
export const Participant = z.object({
  participantId: EntityId,
  type: ParticipantType,
  name: NonBlankText,
  /** e.g. "advisor", "questioner", "debater". */
  role: NonBlankText.optional(),
});
export type Participant = z.infer<typeof Participant>;

const selectionFields = {
  selectionId: EntityId,
  sessionId: EntityId,
  /** Inferred request type, e.g. "architecture", "security". */
  requestClassification: NonBlankText,
  /** Participant ids of the selected personas, in presentation order. */
  selectedPersonaIds: z.array(EntityId).min(1),
  reason: NonBlankText,
  createdAt: Timestamp,
  /** The decision's options (first drafts each back one); absent when the request is no choice, and in older sessions. */
  options: z.array(DecisionOption).optional(),
  /** The opening's read of how far apart the council will start; absent without one, and in older sessions. */
  outlook: z.enum(DEBATE_OUTLOOKS).optional(),
};

/** Which personas were selected for a session and why; a user override names the personas asked for. */
export const PersonaSelection = z.discriminatedUnion('userOverride', [
  z.object({ ...selectionFields, userOverride: z.literal(false) }),
  z.object({
    ...selectionFields,
    userOverride: z.literal(true),
    /** Persona names the user asked for explicitly. */
    overriddenPersonas: z.array(NonBlankText).min(1),
  }),
]);
export type PersonaSelection = z.infer<typeof PersonaSelection>;
