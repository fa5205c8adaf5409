import { z } from 'zod';
import { Confidence } from './enums';
import { MAX_CLARIFICATION_ROUNDS } from './limits';
import { EntityId, NonBlankText, Timestamp } from './primitives';

/** Who generated a clarification question: the council itself, or one or more personas. */
export const QuestionAuthor = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('system') }),
  z.object({ kind: z.literal('personas'), personaIds: z.array(EntityId).min(1) }),
]);
export type QuestionAuthor = z.infer<typeof QuestionAuthor>;

const QuestionFields = z.object({
  questionId: EntityId,
  sessionId: EntityId,
  roundNumber: z.number().int().min(1).max(MAX_CLARIFICATION_ROUNDS),
  sequenceInRound: z.number().int().min(1),
  question: NonBlankText,
  /** What is being clarified, e.g. "scope", "timeline", "priority". */
  targetAmbiguity: NonBlankText,
  askedBy: QuestionAuthor,
  /** The answer the council would assume if asked to choose (shown with the question). */
  recommendedAnswer: NonBlankText.optional(),
  createdAt: Timestamp,
});

/** A clarification question; its status decides which extra fields it carries. */
export const ClarificationQuestion = z.discriminatedUnion('status', [
  QuestionFields.extend({ status: z.literal('pending') }),
  QuestionFields.extend({ status: z.literal('answered'), answerId: EntityId, answeredAt: Timestamp }),
  /** Declined for good (the user skipped all remaining questions). */
  QuestionFields.extend({ status: z.literal('skipped') }),
  /** Skipped for now; `SKIPPED_REVISITED` may ask it again. */
  QuestionFields.extend({ status: z.literal('deferred') }),
]);
export type ClarificationQuestion = z.infer<typeof ClarificationQuestion>;

/** The fields every question has, whatever its status. */
export type QuestionBase = z.infer<typeof QuestionFields>;

/** The names of the fields every question has. */
const QUESTION_FIELD_NAMES = QuestionFields.keyof().options;

/** The question's status-independent fields (used to move it to another status); absent optional fields stay absent. */
export function questionBase(question: ClarificationQuestion): QuestionBase {
  return Object.fromEntries(
    QUESTION_FIELD_NAMES.filter(name => question[name] !== undefined).map(name => [name, question[name]]),
  ) as QuestionBase;
}

/** Orders questions by round, then by position in the round (the spec's temporal order). */
export function compareQuestions(a: QuestionBase, b: QuestionBase): number {
  return a.roundNumber - b.roundNumber || a.sequenceInRound - b.sequenceInRound;
}

/** The user's reply to one clarification question. */
export const ClarificationAnswer = z.object({
  answerId: EntityId,
  questionId: EntityId,
  sessionId: EntityId,
  answer: NonBlankText,
  /** The reply was "Skip question" or equivalent; it must then mention a skip keyword. */
  skipCommand: z.boolean(),
  confidence: Confidence.optional(),
  createdAt: Timestamp,
});
export type ClarificationAnswer = z.infer<typeof ClarificationAnswer>;

/** Why an assumption no longer holds: its question was answered after all, or a newer assumption replaced it. */
const AssumptionWithdrawal = z.discriminatedUnion('reason', [
  z.object({ reason: z.literal('answered'), answerId: EntityId, at: Timestamp }),
  z.object({ reason: z.literal('superseded'), assumptionId: EntityId, at: Timestamp }),
]);
type AssumptionWithdrawal = z.infer<typeof AssumptionWithdrawal>;

/**
 * What the council assumed for a skipped question. Withdrawn assumptions stay in the log
 * (with `withdrawal`) so the session's history stays auditable; only active ones reach the final answer.
 */
export const Assumption = z.object({
  assumptionId: EntityId,
  sessionId: EntityId,
  relatedQuestionId: EntityId.optional(),
  /** e.g. "Assuming the timeline is 2 weeks". */
  assumption: NonBlankText,
  rationale: NonBlankText,
  addedAt: Timestamp,
  withdrawal: AssumptionWithdrawal.optional(),
});
export type Assumption = z.infer<typeof Assumption>;

/** Whether the assumption still holds (it was not withdrawn). */
export function isActiveAssumption(assumption: Assumption): boolean {
  return assumption.withdrawal === undefined;
}
