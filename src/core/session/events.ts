import { z } from 'zod';
import { QuestionAuthor } from './clarification';
import { Confidence } from './enums';
import { Participant } from './participants';
import { EntityId, Timestamp } from './primitives';
import { TurnMetadata } from './turns';
import { DecisionOption } from './decisionOptions';
import { DEBATE_OUTLOOKS } from './debateOutlook';

/*
 * The session machine's events. Each carries every id and timestamp its transition needs, so the
 * machine stays pure and replaying the event log rebuilds the same session. These schemas check
 * shape only; whether an event makes sense right now is the machine guards' job (see guards.ts).
 */

/** A persona selection as decided by the selector; the machine adds session id, time and persona ids. */
const SelectionDraft = z.discriminatedUnion('userOverride', [
  z.object({
    selectionId: EntityId,
    requestClassification: z.string(),
    reason: z.string(),
    /** The decision's options, when the request is a choice between alternatives (absent in older sessions). */
    options: z.array(DecisionOption).optional(),
    /** The opening's read of how far apart the council will start (absent without one, and in older sessions). */
    outlook: z.enum(DEBATE_OUTLOOKS).optional(),
    userOverride: z.literal(false),
  }),
  z.object({
    selectionId: EntityId,
    requestClassification: z.string(),
    reason: z.string(),
    options: z.array(DecisionOption).optional(),
    outlook: z.enum(DEBATE_OUTLOOKS).optional(),
    userOverride: z.literal(true),
    overriddenPersonas: z.array(z.string()),
  }),
]);
type SelectionDraft = z.infer<typeof SelectionDraft>;

/** A question to ask; the machine assigns its round, position and status. */
export const QuestionDraft = z.object({
  questionId: EntityId,
  question: z.string(),
  targetAmbiguity: z.string(),
  askedBy: QuestionAuthor,
  recommendedAnswer: z.string().optional(),
});
export type QuestionDraft = z.infer<typeof QuestionDraft>;

/** The user's reply to the active question. */
const AnswerDraft = z.object({ answerId: EntityId, answer: z.string(), confidence: Confidence.optional() });
type AnswerDraft = z.infer<typeof AnswerDraft>;

/** What the council assumes for a skipped question. */
export const AssumptionDraft = z.object({ assumptionId: EntityId, assumption: z.string(), rationale: z.string() });
export type AssumptionDraft = z.infer<typeof AssumptionDraft>;

/** An assumption for one named question (used when skipping all remaining questions). */
export const QuestionAssumptionDraft = AssumptionDraft.extend({ relatedQuestionId: EntityId });
export type QuestionAssumptionDraft = z.infer<typeof QuestionAssumptionDraft>;

/** What one persona said; the machine makes it a `discussion` or `conclusion` turn. */
export const PersonaStatement = z.object({
  /** The persona's participantId. */
  senderId: EntityId,
  content: z.string(),
  position: z.string(),
  changedPosition: z.boolean(),
  changeReason: z.string().optional(),
  /** Debate turns: the colleagues (by name) whose positions this persona now agrees with. */
  agreesWith: z.array(z.string()).optional(),
  /** Debate turns: the risks the persona still sees. */
  concerns: z.array(z.string()).optional(),
  /** Debate turns: the facts and reasons the position rests on (what later prompts show instead of the argument). */
  keyPoints: z.array(z.string()).optional(),
  /** Debate turns from cycle 2: the name of the persona whose position this one backs (its own included). */
  vote: z.string().optional(),
  /** How sure the persona is. */
  confidence: z.enum(['high', 'medium', 'low']).optional(),
  /** Debate turns in a session with decision options: the label of the option this persona backs. */
  option: z.string().optional(),
  /** Debate turns in a session given precedent: the numbers of the records this persona's position goes against. */
  againstRecords: z.array(z.string()).optional(),
  timestamp: Timestamp,
  recipientId: EntityId.optional(),
  metadata: TurnMetadata.optional(),
});
export type PersonaStatement = z.infer<typeof PersonaStatement>;

/** A persona's position at the end of a cycle. */
const PositionDraft = z.object({
  /** The persona's participantId. */
  personaId: EntityId,
  position: z.string(),
  changedPosition: z.boolean(),
  changeReason: z.string().optional(),
});
type PositionDraft = z.infer<typeof PositionDraft>;

const at = Timestamp;

const PersonasSelected = z.object({
  type: z.literal('PERSONAS_SELECTED'),
  selection: SelectionDraft,
  /** The selected personas (type `persona`); the user participant exists from the start. */
  participants: z.array(Participant),
  at,
});
const ClarificationStarted = z.object({
  type: z.literal('CLARIFICATION_STARTED'),
  questions: z.array(QuestionDraft),
  at,
});
const DebateRequested = z.object({ type: z.literal('DEBATE_REQUESTED'), at });
const QuestionAnswered = z.object({ type: z.literal('QUESTION_ANSWERED'), answer: AnswerDraft, at });
const QuestionSkipped = z.object({ type: z.literal('QUESTION_SKIPPED'), assumption: AssumptionDraft, at });
const RemainingSkipped = z.object({
  type: z.literal('REMAINING_SKIPPED'),
  assumptions: z.array(QuestionAssumptionDraft),
  at,
});
const MoreQuestionsAdded = z.object({
  type: z.literal('MORE_QUESTIONS_ADDED'),
  questions: z.array(QuestionDraft),
  at,
});
const SkippedRevisited = z.object({ type: z.literal('SKIPPED_REVISITED'), at });
const CycleStarted = z.object({
  type: z.literal('CYCLE_STARTED'),
  discussionId: EntityId,
  cycleNumber: z.number().int(),
  personaIds: z.array(EntityId),
  topic: z.string(),
  at,
});
const PersonaSpoke = z.object({ type: z.literal('PERSONA_SPOKE'), turn: PersonaStatement });
const CycleConcluded = z.object({
  type: z.literal('CYCLE_CONCLUDED'),
  resolutionSummary: z.string(),
  positions: z.array(PositionDraft),
  converged: z.boolean(),
  /** The council stops here because its request budget leaves no room for another cycle. */
  stoppedByBudget: z.literal(true).optional(),
  /** The council stops here because nobody moved its vote or position in this cycle. */
  stoppedByStableVote: z.literal(true).optional(),
  /**
   * Seated personas who did not speak in this cycle: their request failed or the spending limit refused it. The
   * council goes on without them, and the answer names them.
   */
  absent: z.array(z.object({ personaId: EntityId, reason: z.string() })).optional(),
  /** The first drafts all backed one option with enough confidence: the council answers without a debate. */
  settledByFirstVote: z.literal(true).optional(),
  at,
});
const DebateExtended = z.object({ type: z.literal('DEBATE_EXTENDED'), at });
const ConclusionRecorded = z.object({ type: z.literal('CONCLUSION_RECORDED'), turn: PersonaStatement });
const FinalAnswerReady = z.object({ type: z.literal('FINAL_ANSWER_READY'), finalAnswer: z.string(), at });
const Cancelled = z.object({ type: z.literal('CANCELLED'), at });

/** Every event the session machine understands. */
export const SessionEvent = z.discriminatedUnion('type', [
  PersonasSelected,
  ClarificationStarted,
  DebateRequested,
  QuestionAnswered,
  QuestionSkipped,
  RemainingSkipped,
  MoreQuestionsAdded,
  SkippedRevisited,
  CycleStarted,
  PersonaSpoke,
  CycleConcluded,
  DebateExtended,
  ConclusionRecorded,
  FinalAnswerReady,
  Cancelled,
]);
export type SessionEvent = z.infer<typeof SessionEvent>;

/** The name of a session event. */
export type SessionEventType = SessionEvent['type'];

/** The event with the given name. */
export type EventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;
