import type { Assumption, ClarificationQuestion } from './clarification';
import { questionBase } from './clarification';
import type { SessionContext } from './context';
import type { EventOf, PersonaStatement, QuestionAssumptionDraft, QuestionDraft } from './events';
import { cycleReachesLimit } from './limits';
import type { PersonaSelection } from './participants';
import { findActiveQuestion, findCurrentDiscussion, findPendingQuestions } from './queries';
import type { PersonaPosition } from './stance';
import type { MessageTurn } from './turns';
import { nextSequenceNumber, turnIdFor } from './turns';

/*
 * How each accepted event changes the session: pure functions from (context, event) to the
 * changed context fields. The machine's guards have already accepted the event.
 */

/** A context change. */
export type ContextUpdate = Partial<SessionContext>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type TurnFields = DistributiveOmit<MessageTurn, 'turnId' | 'sessionId' | 'sequenceNumber'>;

function appendTurns(context: SessionContext, turns: readonly TurnFields[]): MessageTurn[] {
  const appended = [...context.messageTurns];
  for (const fields of turns) {
    const sequenceNumber = nextSequenceNumber(appended);
    appended.push({
      ...fields,
      turnId: turnIdFor(context.sessionId, sequenceNumber),
      sessionId: context.sessionId,
      sequenceNumber,
    });
  }
  return appended;
}

function replaceQuestions(context: SessionContext, changed: readonly ClarificationQuestion[]): ClarificationQuestion[] {
  const byId = new Map(changed.map(question => [question.questionId, question]));
  return context.questions.map(question => byId.get(question.questionId) ?? question);
}

/** Withdraws any assumption still standing for the question. */
function withdrawAssumptionsFor(
  log: readonly Assumption[],
  questionId: string,
  withdrawal: NonNullable<Assumption['withdrawal']>,
): Assumption[] {
  return log.map(entry =>
    entry.relatedQuestionId === questionId && entry.withdrawal === undefined ? { ...entry, withdrawal } : entry,
  );
}

function statementFields(statement: PersonaStatement) {
  return {
    senderId: statement.senderId,
    content: statement.content,
    timestamp: statement.timestamp,
    position: statement.position,
    changedPosition: statement.changedPosition,
    ...(statement.changeReason === undefined ? {} : { changeReason: statement.changeReason }),
    ...(statement.recipientId === undefined ? {} : { recipientId: statement.recipientId }),
    ...(statement.agreesWith === undefined ? {} : { agreesWith: statement.agreesWith }),
    ...(statement.concerns === undefined ? {} : { concerns: statement.concerns }),
    ...(statement.keyPoints === undefined ? {} : { keyPoints: statement.keyPoints }),
    ...(statement.vote === undefined ? {} : { vote: statement.vote }),
    ...(statement.confidence === undefined ? {} : { confidence: statement.confidence }),
    ...(statement.option === undefined ? {} : { option: statement.option }),
    ...(statement.againstRecords === undefined ? {} : { againstRecords: statement.againstRecords }),
    ...(statement.metadata === undefined ? {} : { metadata: statement.metadata }),
  };
}

/** Seats the selected personas and records why they were chosen. */
export function recordSelection(context: SessionContext, event: EventOf<'PERSONAS_SELECTED'>): ContextUpdate {
  const { selection: draft } = event;
  const fields = {
    selectionId: draft.selectionId,
    sessionId: context.sessionId,
    requestClassification: draft.requestClassification,
    selectedPersonaIds: event.participants.map(p => p.participantId),
    reason: draft.reason,
    createdAt: event.at,
    ...(draft.options && draft.options.length > 0 ? { options: [...draft.options] } : {}),
    ...(draft.outlook ? { outlook: draft.outlook } : {}),
  };
  const selection: PersonaSelection = draft.userOverride
    ? { ...fields, userOverride: true, overriddenPersonas: [...draft.overriddenPersonas] }
    : { ...fields, userOverride: false };
  const personas = event.participants.map(({ participantId, type, name, role }) => ({
    participantId,
    type,
    name,
    ...(role === undefined ? {} : { role }),
  }));
  return { selection, participants: [...context.participants, ...personas], updatedAt: event.at };
}

/** Opens the next clarification round with the given questions, all pending. */
export function openRound(
  context: SessionContext,
  event: { readonly questions: readonly QuestionDraft[]; readonly at: string },
): ContextUpdate {
  const roundNumber = context.clarificationRounds + 1;
  const added = event.questions.map((draft, index): ClarificationQuestion => ({
    questionId: draft.questionId,
    sessionId: context.sessionId,
    roundNumber,
    sequenceInRound: index + 1,
    question: draft.question,
    targetAmbiguity: draft.targetAmbiguity,
    askedBy: draft.askedBy,
    ...(draft.recommendedAnswer === undefined ? {} : { recommendedAnswer: draft.recommendedAnswer }),
    createdAt: event.at,
    status: 'pending',
  }));
  return { questions: [...context.questions, ...added], clarificationRounds: roundNumber, updatedAt: event.at };
}

/** Makes the next pending question active and records it as asked; clears the active question when none is left. */
export function askNextQuestion(context: SessionContext, event: { readonly at: string }): ContextUpdate {
  if (findActiveQuestion(context)?.status === 'pending') return {};
  const next = findPendingQuestions(context)[0];
  if (next === undefined) return { activeQuestionId: undefined };
  const askedBy = next.askedBy.kind === 'personas' ? { senderId: next.askedBy.personaIds[0] } : {};
  const turn: TurnFields = {
    messageType: 'question',
    ...askedBy,
    questionId: next.questionId,
    content: next.question,
    timestamp: event.at,
    sessionStatus: 'clarifying',
    relatedCycleOrRound: { cycleType: 'clarification', number: next.roundNumber },
  };
  return { activeQuestionId: next.questionId, messageTurns: appendTurns(context, [turn]), updatedAt: event.at };
}

/** Records the user's answer to the active question; an assumption made for it earlier is withdrawn. */
export function recordAnswer(context: SessionContext, event: EventOf<'QUESTION_ANSWERED'>): ContextUpdate {
  const question = findActiveQuestion(context);
  if (question === undefined) return {};
  const { answerId, answer, confidence } = event.answer;
  const turn: TurnFields = {
    messageType: 'answer',
    senderId: context.userId,
    questionId: question.questionId,
    answerId,
    content: answer,
    timestamp: event.at,
    sessionStatus: 'clarifying',
    relatedCycleOrRound: { cycleType: 'clarification', number: question.roundNumber },
  };
  return {
    questions: replaceQuestions(context, [
      { ...questionBase(question), status: 'answered', answerId, answeredAt: event.at },
    ]),
    answers: [
      ...context.answers,
      {
        answerId,
        questionId: question.questionId,
        sessionId: context.sessionId,
        answer,
        skipCommand: false,
        ...(confidence === undefined ? {} : { confidence }),
        createdAt: event.at,
      },
    ],
    assumptionLog: withdrawAssumptionsFor(context.assumptionLog, question.questionId, {
      reason: 'answered',
      answerId,
      at: event.at,
    }),
    messageTurns: appendTurns(context, [turn]),
    activeQuestionId: undefined,
    updatedAt: event.at,
  };
}

function logAssumptions(
  context: SessionContext,
  drafts: readonly QuestionAssumptionDraft[],
  at: string,
): Pick<SessionContext, 'assumptionLog' | 'messageTurns'> {
  let log: Assumption[] = [...context.assumptionLog];
  const turns: TurnFields[] = [];
  for (const draft of drafts) {
    const question = context.questions.find(q => q.questionId === draft.relatedQuestionId);
    log = withdrawAssumptionsFor(log, draft.relatedQuestionId, {
      reason: 'superseded',
      assumptionId: draft.assumptionId,
      at,
    });
    log.push({
      assumptionId: draft.assumptionId,
      sessionId: context.sessionId,
      relatedQuestionId: draft.relatedQuestionId,
      assumption: draft.assumption,
      rationale: draft.rationale,
      addedAt: at,
    });
    turns.push({
      messageType: 'assumption_statement',
      assumptionId: draft.assumptionId,
      content: draft.assumption,
      timestamp: at,
      sessionStatus: 'clarifying',
      relatedCycleOrRound: { cycleType: 'clarification', number: question?.roundNumber ?? 1 },
    });
  }
  return { assumptionLog: log, messageTurns: appendTurns(context, turns) };
}

/** Defers the active question: the council states what it assumes instead, and the user may revisit it. */
export function recordSkip(context: SessionContext, event: EventOf<'QUESTION_SKIPPED'>): ContextUpdate {
  const question = findActiveQuestion(context);
  if (question === undefined) return {};
  return {
    questions: replaceQuestions(context, [{ ...questionBase(question), status: 'deferred' }]),
    ...logAssumptions(context, [{ ...event.assumption, relatedQuestionId: question.questionId }], event.at),
    activeQuestionId: undefined,
    updatedAt: event.at,
  };
}

/** Skips every remaining question for good, each replaced by its assumption. */
export function skipRemaining(context: SessionContext, event: EventOf<'REMAINING_SKIPPED'>): ContextUpdate {
  const pending = findPendingQuestions(context);
  const order = new Map(pending.map((q, index) => [q.questionId, index]));
  const drafts = [...event.assumptions].sort(
    (a, b) => (order.get(a.relatedQuestionId) ?? 0) - (order.get(b.relatedQuestionId) ?? 0),
  );
  return {
    questions: replaceQuestions(
      context,
      pending.map(q => ({ ...questionBase(q), status: 'skipped' })),
    ),
    ...logAssumptions(context, drafts, event.at),
    activeQuestionId: undefined,
    updatedAt: event.at,
  };
}

/** Puts deferred questions back in the queue; they follow the active question in round order. */
export function revisitDeferred(context: SessionContext, event: EventOf<'SKIPPED_REVISITED'>): ContextUpdate {
  const reopened = context.questions
    .filter(q => q.status === 'deferred')
    .map((q): ClarificationQuestion => ({ ...questionBase(q), status: 'pending' }));
  return { questions: replaceQuestions(context, reopened), updatedAt: event.at };
}

/** Notes the time of an event that changes nothing else (e.g. going straight to the debate). */
export function touch(_context: SessionContext, event: { readonly at: string }): ContextUpdate {
  return { updatedAt: event.at };
}

/** Opens a debate cycle. */
export function startCycle(context: SessionContext, event: EventOf<'CYCLE_STARTED'>): ContextUpdate {
  return {
    discussions: [
      ...context.discussions,
      {
        discussionId: event.discussionId,
        sessionId: context.sessionId,
        cycleNumber: event.cycleNumber,
        participatingPersonaIds: [...event.personaIds],
        exchangeStarts: event.at,
        topic: event.topic,
        messageTurnIds: [],
        status: 'in_progress',
      },
    ],
    updatedAt: event.at,
  };
}

/** Records a persona's contribution to the cycle in progress. */
export function recordContribution(context: SessionContext, event: EventOf<'PERSONA_SPOKE'>): ContextUpdate {
  const current = findCurrentDiscussion(context);
  if (current === undefined) return {};
  const messageTurns = appendTurns(context, [
    {
      messageType: 'discussion',
      ...statementFields(event.turn),
      discussionId: current.discussionId,
      sessionStatus: 'debating',
      relatedCycleOrRound: { cycleType: 'debate', number: current.cycleNumber },
    },
  ]);
  const turnId = messageTurns.at(-1)?.turnId ?? '';
  const updated = { ...current, messageTurnIds: [...current.messageTurnIds, turnId] };
  return { discussions: [...context.discussions.slice(0, -1), updated], messageTurns, updatedAt: event.turn.timestamp };
}

/** Ends the cycle in progress; an unconverged council at the cycle limit is stopped there (FR-016, FR-019). */
export function concludeCycle(context: SessionContext, event: EventOf<'CYCLE_CONCLUDED'>): ContextUpdate {
  const current = findCurrentDiscussion(context);
  if (current === undefined) return {};
  const positions = event.positions.map((p): PersonaPosition => ({
    personaId: p.personaId,
    position: p.position,
    changedPosition: p.changedPosition,
    ...(p.changeReason === undefined ? {} : { changeReason: p.changeReason }),
  }));
  const outcome = {
    exchangeEnds: event.at,
    resolutionSummary: event.resolutionSummary,
    positions,
    ...(event.absent && event.absent.length > 0 ? { absent: event.absent.map(a => ({ ...a })) } : {}),
  };
  const hitLimit =
    !event.converged && cycleReachesLimit(current.cycleNumber, context.limits, context.extendedDebateRequested);
  const ended = hitLimit
    ? { ...current, ...outcome, status: 'limit_reached' as const, converged: false as const }
    : {
        ...current,
        ...outcome,
        status: 'concluded' as const,
        converged: event.converged,
        ...(event.stoppedByBudget && !event.converged ? { stoppedByBudget: true as const } : {}),
        ...(event.stoppedByStableVote && !event.converged ? { stoppedByStableVote: true as const } : {}),
        ...(event.settledByFirstVote && event.converged ? { settledByFirstVote: true as const } : {}),
      };
  return {
    discussions: [...context.discussions.slice(0, -1), ended],
    debateCycles: context.debateCycles + 1,
    limitNotice: hitLimit,
    updatedAt: event.at,
  };
}

/** Lets the council debate on, up to the admin maximum; a completed session reopens and its answer is set aside. */
export function extendDebate(context: SessionContext, event: EventOf<'DEBATE_EXTENDED'>): ContextUpdate {
  // After agreeing first drafts the debate runs within the ordinary limit; after the limit, up to the admin's.
  const hitLimit = context.discussions.at(-1)?.status === 'limit_reached';
  return {
    ...(hitLimit || context.extendedDebateRequested ? { extendedDebateRequested: true } : {}),
    limitNotice: false,
    finalAnswer: undefined,
    updatedAt: event.at,
  };
}

/** Records a persona's final position. */
export function recordConclusion(context: SessionContext, event: EventOf<'CONCLUSION_RECORDED'>): ContextUpdate {
  const turn: TurnFields = { messageType: 'conclusion', ...statementFields(event.turn), sessionStatus: 'final' };
  return { messageTurns: appendTurns(context, [turn]), updatedAt: event.turn.timestamp };
}

/** Stores the consolidated answer. */
export function recordFinalAnswer(_context: SessionContext, event: EventOf<'FINAL_ANSWER_READY'>): ContextUpdate {
  return { finalAnswer: event.finalAnswer, updatedAt: event.at };
}

/** Stops the session; no question stays open. */
export function cancel(_context: SessionContext, event: EventOf<'CANCELLED'>): ContextUpdate {
  return { activeQuestionId: undefined, updatedAt: event.at };
}
