import { z } from 'zod';
import { SessionStatus } from './enums';
import { EntityId, NonBlankText, Timestamp } from './primitives';
import { refineStance, stanceFields } from './stance';

/** Observability details (model used, latency, tone, feature flags); never needed by core logic. */
export const TurnMetadata = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export type TurnMetadata = z.infer<typeof TurnMetadata>;

const turnFields = {
  /** Derived from the session id and sequence number (see `turnIdFor`), so replays reproduce it. */
  turnId: EntityId,
  sessionId: EntityId,
  /** 1-based, strictly increasing within the session. */
  sequenceNumber: z.number().int().min(1),
  content: NonBlankText,
  timestamp: Timestamp,
  /** The session status when the turn was made, so "message type vs status" stays checkable. */
  sessionStatus: SessionStatus,
  /** Targeted participant, for direct persona requests. */
  recipientId: EntityId.optional(),
  metadata: TurnMetadata.optional(),
};

const clarificationRound = z.object({ cycleType: z.literal('clarification'), number: z.number().int().min(1) });
const debateCycle = z.object({ cycleType: z.literal('debate'), number: z.number().int().min(1) });

/** One message of the session. Who may send it and what it refers to depend on its type. */
export const MessageTurn = z.discriminatedUnion('messageType', [
  z.object({
    ...turnFields,
    messageType: z.literal('question'),
    /** The asking persona; absent when the council itself asks. */
    senderId: EntityId.optional(),
    questionId: EntityId,
    relatedCycleOrRound: clarificationRound,
  }),
  z.object({
    ...turnFields,
    messageType: z.literal('answer'),
    senderId: EntityId,
    questionId: EntityId,
    answerId: EntityId,
    relatedCycleOrRound: clarificationRound,
  }),
  z.object({
    ...turnFields,
    messageType: z.literal('assumption_statement'),
    assumptionId: EntityId,
    relatedCycleOrRound: clarificationRound,
  }),
  z
    .object({
      ...turnFields,
      messageType: z.literal('discussion'),
      senderId: EntityId,
      discussionId: EntityId,
      relatedCycleOrRound: debateCycle,
      ...stanceFields,
      /** The colleagues (by name) whose positions this persona agrees with (the economy protocol reads convergence from them). */
      agreesWith: z.array(z.string()).optional(),
      concerns: z.array(z.string()).optional(),
      /** The facts and reasons the position rests on; absent in sessions recorded before they were asked for. */
      keyPoints: z.array(z.string()).optional(),
      /** From cycle 2: whose position this persona backs (a name, its own included). */
      vote: z.string().optional(),
      confidence: z.enum(['high', 'medium', 'low']).optional(),
      /** In a session with decision options: the label of the option this persona backs. */
      option: z.string().optional(),
      /** In a session given precedent: the numbers of the earlier decision records this position goes against. */
      againstRecords: z.array(z.string()).optional(),
    })
    .superRefine(refineStance),
  z
    .object({ ...turnFields, messageType: z.literal('conclusion'), senderId: EntityId, ...stanceFields })
    .superRefine(refineStance),
]);
export type MessageTurn = z.infer<typeof MessageTurn>;

/** A turn of one message type. */
export type TurnOf<T extends MessageTurn['messageType']> = Extract<MessageTurn, { messageType: T }>;

/** The id of the turn at `sequenceNumber`: unique per session and reproducible on replay. */
export function turnIdFor(sessionId: string, sequenceNumber: number): string {
  return `${sessionId}#${sequenceNumber}`;
}

/** The sequence number the next turn gets. */
export function nextSequenceNumber(turns: readonly MessageTurn[]): number {
  return (turns.at(-1)?.sequenceNumber ?? 0) + 1;
}

/**
 * The turns of the most recent run of `final`-status turns (empty when the last turn is not one).
 * Each persona concludes at most once per such run.
 */
export function currentFinalRun(turns: readonly MessageTurn[]): readonly MessageTurn[] {
  let start = turns.length;
  while (start > 0 && turns[start - 1]?.sessionStatus === 'final') start -= 1;
  return turns.slice(start);
}
