import { and, assertEvent, assign, setup, type SnapshotFrom } from 'xstate';
import type { SessionContext, SessionInput } from './context';
import { initialContext } from './context';
import type { SessionEvent } from './events';
import {
  acceptanceChecks,
  checks,
  clarificationExhausted,
  budgetStopsDebate,
  voteStopsDebate,
  councilConverged,
  cycleLimitReached,
  type Check,
} from './guards';
import * as update from './updates';

/** Turns a reason-giving check into an XState guard. */
function accepts(check: Check) {
  return ({ context, event }: { context: SessionContext; event: SessionEvent }): boolean =>
    check(context, event) === undefined;
}

/** Extending the debate reopens it, from `final` and from `completed` alike. */
const extendDebate = {
  guard: and([...acceptanceChecks.DEBATE_EXTENDED]),
  target: 'debating',
  actions: 'extendDebate',
} as const;

/**
 * One council session (spec 004) as an XState v5 machine. The machine is pure: every id and
 * timestamp comes in on its events, so replaying the event log rebuilds the same session.
 * Events a guard refuses leave the snapshot unchanged; `explainRejection` says why.
 *
 * Deviation from the spec's diagram: `DEBATE_EXTENDED` is also accepted in `completed`, reopening
 * the debate, because the user is offered the extension only after the limited answer is shown.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  guards: {
    selectionIsValid: accepts(checks.selectionIsValid),
    hasPersonas: accepts(checks.hasPersonas),
    canStartAnotherRound: accepts(checks.canStartAnotherRound),
    questionsAreValid: accepts(checks.questionsAreValid),
    hasActiveQuestion: accepts(checks.hasActiveQuestion),
    answerIsValid: accepts(checks.answerIsValid),
    assumptionIsValid: accepts(checks.assumptionIsValid),
    coversPendingQuestions: accepts(checks.coversPendingQuestions),
    hasDeferredQuestions: accepts(checks.hasDeferredQuestions),
    noCycleInProgress: accepts(checks.noCycleInProgress),
    cycleWithinLimit: accepts(checks.cycleWithinLimit),
    cycleIsWellFormed: accepts(checks.cycleIsWellFormed),
    personaMaySpeak: accepts(checks.personaMaySpeak),
    cycleIsComplete: accepts(checks.cycleIsComplete),
    canExtendDebate: accepts(checks.canExtendDebate),
    personaMayConclude: accepts(checks.personaMayConclude),
    finalAnswerIsReady: accepts(checks.finalAnswerIsReady),
    councilConverged: ({ event }) => {
      assertEvent(event, 'CYCLE_CONCLUDED');
      return councilConverged(event);
    },
    cycleLimitReached: ({ context }) => cycleLimitReached(context),
    budgetStopsDebate: ({ event }) => {
      assertEvent(event, 'CYCLE_CONCLUDED');
      return budgetStopsDebate(event);
    },
    voteStopsDebate: ({ event }) => {
      assertEvent(event, 'CYCLE_CONCLUDED');
      return voteStopsDebate(event);
    },
    clarificationExhausted: ({ context }) => clarificationExhausted(context),
  },
  actions: {
    recordSelection: assign(({ context, event }) => {
      assertEvent(event, 'PERSONAS_SELECTED');
      return update.recordSelection(context, event);
    }),
    openRound: assign(({ context, event }) => {
      assertEvent(event, ['CLARIFICATION_STARTED', 'MORE_QUESTIONS_ADDED']);
      return update.openRound(context, event);
    }),
    askNextQuestion: assign(({ context, event }) => {
      assertEvent(event, ['CLARIFICATION_STARTED', 'QUESTION_ANSWERED', 'QUESTION_SKIPPED']);
      return update.askNextQuestion(context, event);
    }),
    recordAnswer: assign(({ context, event }) => {
      assertEvent(event, 'QUESTION_ANSWERED');
      return update.recordAnswer(context, event);
    }),
    recordSkip: assign(({ context, event }) => {
      assertEvent(event, 'QUESTION_SKIPPED');
      return update.recordSkip(context, event);
    }),
    skipRemaining: assign(({ context, event }) => {
      assertEvent(event, 'REMAINING_SKIPPED');
      return update.skipRemaining(context, event);
    }),
    revisitDeferred: assign(({ context, event }) => {
      assertEvent(event, 'SKIPPED_REVISITED');
      return update.revisitDeferred(context, event);
    }),
    touch: assign(({ context, event }) => {
      assertEvent(event, 'DEBATE_REQUESTED');
      return update.touch(context, event);
    }),
    startCycle: assign(({ context, event }) => {
      assertEvent(event, 'CYCLE_STARTED');
      return update.startCycle(context, event);
    }),
    recordContribution: assign(({ context, event }) => {
      assertEvent(event, 'PERSONA_SPOKE');
      return update.recordContribution(context, event);
    }),
    concludeCycle: assign(({ context, event }) => {
      assertEvent(event, 'CYCLE_CONCLUDED');
      return update.concludeCycle(context, event);
    }),
    extendDebate: assign(({ context, event }) => {
      assertEvent(event, 'DEBATE_EXTENDED');
      return update.extendDebate(context, event);
    }),
    recordConclusion: assign(({ context, event }) => {
      assertEvent(event, 'CONCLUSION_RECORDED');
      return update.recordConclusion(context, event);
    }),
    recordFinalAnswer: assign(({ context, event }) => {
      assertEvent(event, 'FINAL_ANSWER_READY');
      return update.recordFinalAnswer(context, event);
    }),
    cancel: assign(({ context, event }) => {
      assertEvent(event, 'CANCELLED');
      return update.cancel(context, event);
    }),
  },
}).createMachine({
  id: 'councilSession',
  context: ({ input }) => initialContext(input),
  initial: 'created',
  states: {
    created: {
      on: {
        PERSONAS_SELECTED: { guard: and([...acceptanceChecks.PERSONAS_SELECTED]), actions: 'recordSelection' },
        CLARIFICATION_STARTED: {
          guard: and([...acceptanceChecks.CLARIFICATION_STARTED]),
          target: 'clarifying',
          actions: ['openRound', 'askNextQuestion'],
        },
        DEBATE_REQUESTED: { guard: and([...acceptanceChecks.DEBATE_REQUESTED]), target: 'debating', actions: 'touch' },
        CANCELLED: { target: 'cancelled', actions: 'cancel' },
      },
    },
    clarifying: {
      // Once no question is left to ask, the council debates on what it learned.
      always: { guard: 'clarificationExhausted', target: 'debating' },
      on: {
        QUESTION_ANSWERED: {
          guard: and([...acceptanceChecks.QUESTION_ANSWERED]),
          actions: ['recordAnswer', 'askNextQuestion'],
        },
        QUESTION_SKIPPED: {
          guard: and([...acceptanceChecks.QUESTION_SKIPPED]),
          actions: ['recordSkip', 'askNextQuestion'],
        },
        REMAINING_SKIPPED: {
          guard: and([...acceptanceChecks.REMAINING_SKIPPED]),
          target: 'final',
          actions: 'skipRemaining',
        },
        MORE_QUESTIONS_ADDED: { guard: and([...acceptanceChecks.MORE_QUESTIONS_ADDED]), actions: 'openRound' },
        SKIPPED_REVISITED: { guard: and([...acceptanceChecks.SKIPPED_REVISITED]), actions: 'revisitDeferred' },
        CANCELLED: { target: 'cancelled', actions: 'cancel' },
      },
    },
    debating: {
      on: {
        CYCLE_STARTED: { guard: and([...acceptanceChecks.CYCLE_STARTED]), actions: 'startCycle' },
        PERSONA_SPOKE: { guard: and([...acceptanceChecks.PERSONA_SPOKE]), actions: 'recordContribution' },
        CYCLE_CONCLUDED: [
          {
            guard: and([...acceptanceChecks.CYCLE_CONCLUDED, 'councilConverged']),
            target: 'final',
            actions: 'concludeCycle',
          },
          {
            guard: and([...acceptanceChecks.CYCLE_CONCLUDED, 'cycleLimitReached']),
            target: 'final',
            actions: 'concludeCycle',
          },
          {
            guard: and([...acceptanceChecks.CYCLE_CONCLUDED, 'budgetStopsDebate']),
            target: 'final',
            actions: 'concludeCycle',
          },
          {
            guard: and([...acceptanceChecks.CYCLE_CONCLUDED, 'voteStopsDebate']),
            target: 'final',
            actions: 'concludeCycle',
          },
          { guard: and([...acceptanceChecks.CYCLE_CONCLUDED]), actions: 'concludeCycle' },
        ],
        CANCELLED: { target: 'cancelled', actions: 'cancel' },
      },
    },
    final: {
      on: {
        CONCLUSION_RECORDED: { guard: and([...acceptanceChecks.CONCLUSION_RECORDED]), actions: 'recordConclusion' },
        FINAL_ANSWER_READY: {
          guard: and([...acceptanceChecks.FINAL_ANSWER_READY]),
          target: 'completed',
          actions: 'recordFinalAnswer',
        },
        DEBATE_EXTENDED: extendDebate,
        CANCELLED: { target: 'cancelled', actions: 'cancel' },
      },
    },
    completed: {
      // Not a final state: an extended debate may reopen it (see the deviation note above).
      on: {
        DEBATE_EXTENDED: extendDebate,
      },
    },
    cancelled: { type: 'final' },
  },
});

/** The session machine's type. */
export type SessionMachine = typeof sessionMachine;

/** A snapshot of a running or replayed session. */
export type SessionSnapshot = SnapshotFrom<SessionMachine>;
