import type { SessionContext } from './context';
import type { EventOf, QuestionDraft, SessionEvent, SessionEventType } from './events';
import {
  canStartClarificationRound,
  clarificationRoundLimit,
  cycleLimit,
  cycleReachesLimit,
  cycleWithinLimit as limitAllowsCycle,
  enoughDebaters,
  extensionAllowed,
} from './limits';
import { isBlank } from './primitives';
import {
  findActiveQuestion,
  findCurrentDiscussion,
  findDeferredQuestions,
  findLastDiscussion,
  findPendingQuestions,
  findPersonas,
  isPersonaId,
  spokenPersonaIds,
} from './queries';
import { stanceProblem } from './stance';
import { currentFinalRun } from './turns';

/**
 * The machine's acceptance guards. Each check returns why an event must be refused (a message the
 * user can read), or undefined when it may proceed; the machine accepts an event only when every
 * check listed for it in `acceptanceChecks` passes, and `explainRejection` reports the first failure.
 */
export type Check = (context: SessionContext, event: SessionEvent) => string | undefined;

function forEvents<T extends SessionEventType>(
  types: readonly T[],
  check: (context: SessionContext, event: EventOf<T>) => string | undefined,
): Check {
  return (context, event) =>
    (types as readonly string[]).includes(event.type)
      ? check(context, event as EventOf<T>)
      : `${event.type} is not checked here.`;
}

function allDistinct(values: readonly string[]): boolean {
  return new Set(values).size === values.length;
}

function questionsProblem(context: SessionContext, questions: readonly QuestionDraft[]): string | undefined {
  if (questions.length === 0) return 'A clarification round needs at least one question.';
  if (questions.some(q => isBlank(q.question) || isBlank(q.targetAmbiguity))) {
    return 'Every clarification question needs its text and what it clarifies.';
  }
  if (questions.some(q => q.recommendedAnswer !== undefined && isBlank(q.recommendedAnswer))) {
    return 'A recommended answer, when given, cannot be blank.';
  }
  const ids = questions.map(q => q.questionId);
  if (!allDistinct(ids) || context.questions.some(q => ids.includes(q.questionId)))
    return 'Each question needs a new id.';
  const askers = questions.flatMap(q => (q.askedBy.kind === 'personas' ? q.askedBy.personaIds : []));
  if (askers.some(id => !isPersonaId(context, id)))
    return 'Only personas on the council can ask clarification questions.';
  return undefined;
}

function assumptionProblem(
  context: SessionContext,
  drafts: ReadonlyArray<{ assumptionId: string; assumption: string; rationale: string }>,
): string | undefined {
  if (drafts.some(d => isBlank(d.assumption) || isBlank(d.rationale))) {
    return 'A skipped question needs the assumption the council will make instead, and why.';
  }
  const ids = drafts.map(d => d.assumptionId);
  if (!allDistinct(ids) || context.assumptionLog.some(a => ids.includes(a.assumptionId)))
    return 'Each assumption needs a new id.';
  return undefined;
}

function pluralRounds(count: number): string {
  return count === 1 ? '1 round' : `${count} rounds`;
}

/** Every named acceptance check. */
export const checks = {
  /** Personas are chosen once, before anything else, and only personas join this way. */
  selectionIsValid: forEvents(['PERSONAS_SELECTED'], (context, event) => {
    if (context.selection !== undefined) return 'The council personas are already selected for this session.';
    if (event.participants.length === 0) return 'Select at least one persona for the council.';
    if (event.participants.some(p => p.type !== 'persona'))
      return 'Only personas join the council this way; the user takes part from the start.';
    if (event.participants.some(p => isBlank(p.name))) return 'Every persona needs a name.';
    const ids = event.participants.map(p => p.participantId);
    if (!allDistinct(ids) || context.participants.some(p => ids.includes(p.participantId)))
      return 'Each persona needs its own participant id.';
    if (!allDistinct(event.participants.map(p => p.name))) return 'Each persona can sit on the council only once.';
    if (isBlank(event.selection.requestClassification) || isBlank(event.selection.reason)) {
      return 'The persona selection must say how the request was classified and why these personas were chosen.';
    }
    if (
      event.selection.userOverride &&
      (event.selection.overriddenPersonas.length === 0 || event.selection.overriddenPersonas.some(isBlank))
    ) {
      return 'A user override must name the personas the user asked for.';
    }
    return undefined;
  }),

  /** Nothing happens before the council is seated. */
  hasPersonas: context =>
    context.selection === undefined || findPersonas(context).length === 0
      ? 'Select the council personas first.'
      : undefined,

  /** At most N (<= 3) clarification rounds (FR-021). */
  canStartAnotherRound: context =>
    canStartClarificationRound(context.clarificationRounds, context.limits)
      ? undefined
      : `Clarification is limited to ${pluralRounds(clarificationRoundLimit(context.limits))}; the council will proceed on the answers so far.`,

  /** A round brings new, well-formed questions asked by council personas. */
  questionsAreValid: forEvents(['CLARIFICATION_STARTED', 'MORE_QUESTIONS_ADDED'], (context, event) =>
    questionsProblem(context, event.questions),
  ),

  /** Exactly one question is active at a time (FR-004): replies and revisits need it. */
  hasActiveQuestion: context =>
    findActiveQuestion(context)?.status === 'pending' ? undefined : 'There is no open clarification question.',

  /** An answer says something and is recorded once. */
  answerIsValid: forEvents(['QUESTION_ANSWERED'], (context, event) => {
    if (isBlank(event.answer.answer)) return 'An answer cannot be empty; reply "skip" to skip the question.';
    if (context.answers.some(a => a.answerId === event.answer.answerId)) return 'That answer was already recorded.';
    return undefined;
  }),

  /** A skipped question is replaced by an explicit assumption. */
  assumptionIsValid: forEvents(['QUESTION_SKIPPED'], (context, event) =>
    assumptionProblem(context, [event.assumption]),
  ),

  /** Skipping the rest needs one assumption per remaining question, and no others. */
  coversPendingQuestions: forEvents(['REMAINING_SKIPPED'], (context, event) => {
    const pending = findPendingQuestions(context)
      .map(q => q.questionId)
      .sort();
    const covered = event.assumptions.map(a => a.relatedQuestionId).sort();
    if (pending.length !== covered.length || pending.some((id, index) => covered[index] !== id)) {
      return 'Skipping the remaining questions needs exactly one assumption for each of them.';
    }
    return assumptionProblem(context, event.assumptions);
  }),

  /** Revisiting needs something that was skipped. */
  hasDeferredQuestions: context =>
    findDeferredQuestions(context).length > 0 ? undefined : 'There are no skipped questions to revisit.',

  /** One debate cycle at a time. */
  noCycleInProgress: context => {
    const current = findCurrentDiscussion(context);
    return current === undefined ? undefined : `Debate cycle ${current.cycleNumber} is still in progress.`;
  },

  /** Debate cycles stop at the limit: 10 by default, the admin maximum once extended (FR-016/017/018). */
  cycleWithinLimit: forEvents(['CYCLE_STARTED'], (context, event) => {
    if (limitAllowsCycle(event.cycleNumber, context.limits, context.extendedDebateRequested)) return undefined;
    const limit = cycleLimit(context.limits, context.extendedDebateRequested);
    return `The debate is limited to ${limit} cycles; the council will conclude with the positions so far.`;
  }),

  /** A cycle is the next in sequence, has a topic, and seats council personas (two or more when the council has them). */
  cycleIsWellFormed: forEvents(['CYCLE_STARTED'], (context, event) => {
    if (event.cycleNumber !== context.debateCycles + 1)
      return `The next debate cycle is number ${context.debateCycles + 1}.`;
    if (context.discussions.some(d => d.discussionId === event.discussionId))
      return 'Each debate cycle needs a new id.';
    if (isBlank(event.topic)) return 'A debate cycle needs a topic.';
    if (event.personaIds.length === 0 || !allDistinct(event.personaIds))
      return 'A debate cycle needs its personas, each named once.';
    if (event.personaIds.some(id => !isPersonaId(context, id))) return 'Only personas on the council can debate.';
    if (!enoughDebaters(event.personaIds.length, findPersonas(context).length))
      return 'A debate needs at least two personas when the council has more than one.';
    return undefined;
  }),

  /** Each persona in the cycle speaks once, with a stance. */
  personaMaySpeak: forEvents(['PERSONA_SPOKE'], (context, event) => {
    const current = findCurrentDiscussion(context);
    if (current === undefined) return 'No debate cycle is in progress.';
    if (!current.participatingPersonaIds.includes(event.turn.senderId))
      return 'That persona is not part of this debate cycle.';
    if (spokenPersonaIds(context, current).has(event.turn.senderId))
      return 'Each persona speaks once per debate cycle.';
    if (isBlank(event.turn.content)) return "A persona's contribution cannot be empty.";
    return stanceProblem(event.turn);
  }),

  /** A cycle ends once everyone spoke, with a resolution summary and each persona's position. */
  cycleIsComplete: forEvents(['CYCLE_CONCLUDED'], (context, event) => {
    const current = findCurrentDiscussion(context);
    if (current === undefined) return 'No debate cycle is in progress.';
    const spoken = spokenPersonaIds(context, current);
    const absent = (event.absent ?? []).map(a => a.personaId);
    if (absent.some(id => spoken.has(id) || !current.participatingPersonaIds.includes(id)) || !allDistinct(absent))
      return 'Only a seated persona who has not spoken may be absent from a cycle, once.';
    if (spoken.size + absent.length < current.participatingPersonaIds.length) {
      return 'A debate cycle ends once every persona in it has spoken (or is recorded as absent).';
    }
    if (spoken.size === 0) return 'A debate cycle needs at least one contribution.';
    if (isBlank(event.resolutionSummary)) return 'A debate cycle needs a resolution summary before it concludes.';
    const positioned = event.positions.map(p => p.personaId);
    const expected = current.participatingPersonaIds.filter(id => !absent.includes(id));
    if (
      positioned.length !== expected.length ||
      !allDistinct(positioned) ||
      positioned.some(id => !expected.includes(id))
    ) {
      return 'Give exactly one position for each persona in the cycle.';
    }
    return event.positions.map(stanceProblem).find(problem => problem !== undefined);
  }),

  /** An extension is possible once, after the limit stopped the debate, up to the admin maximum (FR-017/018). */
  canExtendDebate: context => {
    const last = findLastDiscussion(context);
    const hitLimit = last?.status === 'limit_reached';
    if (extensionAllowed(context.limits, context.extendedDebateRequested, hitLimit)) return undefined;
    // The first drafts agreed and no debate ran: the user may still ask for one, within the cycle limit.
    if (
      last?.status === 'concluded' &&
      last.settledByFirstVote === true &&
      limitAllowsCycle(last.cycleNumber + 1, context.limits, context.extendedDebateRequested)
    )
      return undefined;
    if (!hitLimit) return 'The debate can only be extended after it reached its cycle limit.';
    return `The debate already uses the maximum of ${cycleLimit(context.limits, context.extendedDebateRequested)} cycles allowed by the administrator.`;
  },

  /** Each persona gives one conclusion per final phase. */
  personaMayConclude: forEvents(['CONCLUSION_RECORDED'], (context, event) => {
    if (!isPersonaId(context, event.turn.senderId)) return 'Only personas on the council give conclusions.';
    const concluded = currentFinalRun(context.messageTurns).some(
      t => t.messageType === 'conclusion' && t.senderId === event.turn.senderId,
    );
    if (concluded) return 'Each persona gives one conclusion.';
    if (isBlank(event.turn.content)) return 'A conclusion cannot be empty.';
    return stanceProblem(event.turn);
  }),

  /** Completion needs a final answer and a conversation behind it. */
  finalAnswerIsReady: forEvents(['FINAL_ANSWER_READY'], (context, event) => {
    if (isBlank(event.finalAnswer)) return 'The final answer cannot be empty.';
    if (context.messageTurns.length === 0)
      return 'The council has not said anything yet, so there is nothing to conclude.';
    return undefined;
  }),
} satisfies Record<string, Check>;

/** The name of an acceptance check. */
export type CheckName = keyof typeof checks;

/** The checks an event must pass, in the order they are explained. The machine uses exactly these lists. */
export const acceptanceChecks = {
  PERSONAS_SELECTED: ['selectionIsValid'],
  CLARIFICATION_STARTED: ['hasPersonas', 'canStartAnotherRound', 'questionsAreValid'],
  DEBATE_REQUESTED: ['hasPersonas'],
  QUESTION_ANSWERED: ['hasActiveQuestion', 'answerIsValid'],
  QUESTION_SKIPPED: ['hasActiveQuestion', 'assumptionIsValid'],
  REMAINING_SKIPPED: ['hasActiveQuestion', 'coversPendingQuestions'],
  MORE_QUESTIONS_ADDED: ['hasActiveQuestion', 'canStartAnotherRound', 'questionsAreValid'],
  SKIPPED_REVISITED: ['hasActiveQuestion', 'hasDeferredQuestions'],
  CYCLE_STARTED: ['noCycleInProgress', 'cycleWithinLimit', 'cycleIsWellFormed'],
  PERSONA_SPOKE: ['personaMaySpeak'],
  CYCLE_CONCLUDED: ['cycleIsComplete'],
  DEBATE_EXTENDED: ['canExtendDebate'],
  CONCLUSION_RECORDED: ['personaMayConclude'],
  FINAL_ANSWER_READY: ['finalAnswerIsReady'],
  CANCELLED: [],
} as const satisfies { readonly [T in SessionEventType]: readonly CheckName[] };

/** The first reason the event's acceptance checks give for refusing it, if any. */
export function firstRejection(context: SessionContext, event: SessionEvent): string | undefined {
  const names: readonly CheckName[] = acceptanceChecks[event.type];
  for (const name of names) {
    const reason = checks[name](context, event);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** The council agreed, so the debate ends early. */
export function councilConverged(event: EventOf<'CYCLE_CONCLUDED'>): boolean {
  return event.converged;
}

/** The council's request budget leaves no room for another cycle. */
export function budgetStopsDebate(event: EventOf<'CYCLE_CONCLUDED'>): boolean {
  return event.stoppedByBudget === true;
}

/** Nobody moved its vote or position: another cycle would repeat this one. */
export function voteStopsDebate(event: EventOf<'CYCLE_CONCLUDED'>): boolean {
  return event.stoppedByStableVote === true;
}

/** The cycle in progress is the last one the limit allows. */
export function cycleLimitReached(context: SessionContext): boolean {
  const current = findCurrentDiscussion(context);
  return (
    current !== undefined && cycleReachesLimit(current.cycleNumber, context.limits, context.extendedDebateRequested)
  );
}

/** No question is left to ask, so clarification is over. */
export function clarificationExhausted(context: SessionContext): boolean {
  return findActiveQuestion(context) === undefined;
}
