import { strict as assert } from 'node:assert';
import { getShortestPaths } from '@xstate/graph';
import type { SessionEvent } from '../../../../src/core/session/events';
import { clarificationRoundLimit, cycleLimit } from '../../../../src/core/session/limits';
import { sessionMachine, type SessionSnapshot } from '../../../../src/core/session/machine';
import { findCurrentDiscussion, findPendingQuestions, spokenPersonaIds } from '../../../../src/core/session/queries';
import { replaySession } from '../../../../src/core/session/replay';
import { SessionInput } from '../../../../src/core/session/context';
import { sessionView } from '../../../support/sessionViews';
import { validateSession } from '../../../support/sessionValidation/validateSession';
import { ARCHITECT, DEVELOPER, INPUT, PERSONA_NAMES } from './fixtures';

// Small limits keep the reachable state space small while still hitting every limit.
const input = SessionInput.parse({
  ...INPUT,
  limits: { maxClarificationRounds: 2, debateCycleLimit: 1, adminMaxDebateCycles: 2 },
});

/**
 * A deterministic clock derived from the state: one second per record so far. Records only grow,
 * so time never runs backwards along a path, and different orders of the same steps meet again.
 */
function nextTime(snapshot: SessionSnapshot): string {
  const c = snapshot.context;
  const records =
    c.messageTurns.length + c.questions.length + c.assumptionLog.length + c.discussions.length + c.debateCycles;
  const seconds =
    records +
    (c.selection === undefined ? 0 : 1) +
    (c.extendedDebateRequested ? 1 : 0) +
    (c.finalAnswer === undefined ? 0 : 1) +
    1;
  return new Date(Date.parse(c.createdAt) + seconds * 1000).toISOString();
}

/** Sample events for a state: the ones the user or orchestrator could send, plus a few the guards must refuse. */
function sampleEvents(snapshot: SessionSnapshot): readonly SessionEvent[] {
  const { context } = snapshot;
  const at = nextTime(snapshot);
  const n = context.questions.length;
  const question = (i: number) => ({
    questionId: `q${n + i}`,
    question: `Question ${n + i}?`,
    targetAmbiguity: 'scope',
    askedBy: { kind: 'system' as const },
  });
  const current = findCurrentDiscussion(context);
  const spoken = current === undefined ? new Set<string>() : spokenPersonaIds(context, current);
  const personas = [ARCHITECT.participantId, DEVELOPER.participantId];
  const statement = (senderId: string) => ({
    senderId,
    content: `${senderId} says`,
    position: `${senderId} holds`,
    changedPosition: false,
    timestamp: at,
  });
  const positions = personas.map(personaId => ({ personaId, position: `${personaId} holds`, changedPosition: false }));
  return [
    {
      type: 'PERSONAS_SELECTED',
      selection: {
        selectionId: 'selection-1',
        requestClassification: 'architecture',
        reason: 'design question',
        userOverride: false,
      },
      participants: [ARCHITECT, DEVELOPER],
      at,
    },
    {
      type: 'PERSONAS_SELECTED',
      selection: { selectionId: 'selection-x', requestClassification: 'x', reason: 'x', userOverride: false },
      participants: [],
      at,
    },
    { type: 'CLARIFICATION_STARTED', questions: [question(1), question(2)], at },
    { type: 'DEBATE_REQUESTED', at },
    { type: 'QUESTION_ANSWERED', answer: { answerId: `a${context.answers.length + 1}`, answer: 'An answer' }, at },
    { type: 'QUESTION_ANSWERED', answer: { answerId: 'blank', answer: ' ' }, at },
    // Skip and revisit could loop forever; three skips are enough to cover revisiting twice.
    ...(context.assumptionLog.length < 3
      ? [
          {
            type: 'QUESTION_SKIPPED',
            assumption: {
              assumptionId: `as${context.assumptionLog.length + 1}`,
              assumption: 'Assume so',
              rationale: 'default',
            },
            at,
          } as const,
        ]
      : []),
    {
      type: 'REMAINING_SKIPPED',
      assumptions: findPendingQuestions(context).map((q, i) => ({
        assumptionId: `as${context.assumptionLog.length + 1 + i}`,
        relatedQuestionId: q.questionId,
        assumption: 'Assume so',
        rationale: 'default',
      })),
      at,
    },
    { type: 'MORE_QUESTIONS_ADDED', questions: [question(1)], at },
    { type: 'SKIPPED_REVISITED', at },
    {
      type: 'CYCLE_STARTED',
      discussionId: `d${context.discussions.length + 1}`,
      cycleNumber: context.debateCycles + 1,
      personaIds: personas,
      topic: 'Cache',
      at,
    },
    {
      type: 'CYCLE_STARTED',
      discussionId: 'd-solo',
      cycleNumber: context.debateCycles + 1,
      personaIds: ['architect'],
      topic: 'Cache',
      at,
    },
    {
      type: 'CYCLE_STARTED',
      discussionId: 'd-late',
      cycleNumber: context.debateCycles + 2,
      personaIds: personas,
      topic: 'Cache',
      at,
    },
    ...personas
      .filter(id => !spoken.has(id))
      .map((id): SessionEvent => ({ type: 'PERSONA_SPOKE', turn: statement(id) })),
    { type: 'PERSONA_SPOKE', turn: statement('architect') },
    { type: 'CYCLE_CONCLUDED', resolutionSummary: 'Agreed', positions, converged: true, at },
    { type: 'CYCLE_CONCLUDED', resolutionSummary: 'Still split', positions, converged: false, at },
    { type: 'DEBATE_EXTENDED', at },
    ...personas.map((id): SessionEvent => ({ type: 'CONCLUSION_RECORDED', turn: statement(id) })),
    { type: 'FINAL_ANSWER_READY', finalAnswer: 'The answer', at },
    { type: 'CANCELLED', at },
  ];
}

const selectEvent: SessionEvent = {
  type: 'PERSONAS_SELECTED',
  selection: {
    selectionId: 'selection-1',
    requestClassification: 'architecture',
    reason: 'design question',
    userOverride: false,
  },
  participants: [ARCHITECT, DEVELOPER],
  at: '2025-01-01T00:00:01.000Z',
};

/** A walk: every shortest path from the state the prefix of events leads to. */
interface Walk {
  readonly name: string;
  readonly prefix: readonly SessionEvent[];
  readonly stopWhen?: (snapshot: SessionSnapshot) => boolean;
  /** How many distinct sessions the walk must at least reach (guards against a walk that silently stops early). */
  readonly minStates: number;
}

// Walked separately, the clarification and debate phases stay small; together they would multiply.
const walks: readonly Walk[] = [
  {
    name: 'clarification phase',
    prefix: [],
    stopWhen: s => s.value !== 'created' && s.value !== 'clarifying',
    minStates: 500,
  },
  {
    name: 'debate phase',
    prefix: [selectEvent, { type: 'DEBATE_REQUESTED', at: '2025-01-01T00:00:02.000Z' }],
    minStates: 500,
  },
  {
    name: 'final phase after skipping the remaining questions',
    prefix: [
      selectEvent,
      {
        type: 'CLARIFICATION_STARTED',
        questions: [{ questionId: 'q1', question: 'Scope?', targetAmbiguity: 'scope', askedBy: { kind: 'system' } }],
        at: '2025-01-01T00:00:02.000Z',
      },
      {
        type: 'REMAINING_SKIPPED',
        assumptions: [{ assumptionId: 'as1', relatedQuestionId: 'q1', assumption: 'All of it', rationale: 'default' }],
        at: '2025-01-01T00:00:03.000Z',
      },
    ],
    minStates: 10,
  },
];

/** Every shortest path of the walk. */
function explore(walk: Walk) {
  return getShortestPaths(sessionMachine, {
    input,
    fromState: replaySession(input, walk.prefix),
    events: sampleEvents,
    ...(walk.stopWhen === undefined ? {} : { stopWhen: walk.stopWhen }),
  });
}

const explored = new Map<Walk, ReturnType<typeof explore>>();

/** The walk's paths, explored on first use: the walks are @slow, so the fast unit loop never pays for them. */
function pathsOf(walk: Walk): ReturnType<typeof explore> {
  const paths = explored.get(walk) ?? explore(walk);
  explored.set(walk, paths);
  return paths;
}

for (const walk of walks) {
  describe(`session machine: model-based walk of the ${walk.name} (@xstate/graph) @slow`, () => {
    it(`reaches at least ${walk.minStates} distinct sessions`, () => {
      const paths = pathsOf(walk);
      assert.ok(paths.length >= walk.minStates, `expected at least ${walk.minStates} sessions, got ${paths.length}`);
    });

    it('every reachable session satisfies the spec invariants', () => {
      for (const path of pathsOf(walk)) {
        const { state } = path;
        const where = `${state.value} after ${path.steps
          .slice(1)
          .map(s => s.event.type)
          .join(' > ')}`;
        assert.deepStrictEqual(validateSession(sessionView(state), { personaNames: PERSONA_NAMES }), [], where);
        const active = state.context.questions.filter(q => q.questionId === state.context.activeQuestionId);
        assert.equal(
          active.length,
          state.value === 'clarifying' ? 1 : 0,
          `exactly one active question while clarifying: ${where}`,
        );
        assert.ok(state.context.clarificationRounds <= clarificationRoundLimit(state.context.limits), where);
        assert.ok(
          state.context.debateCycles <= cycleLimit(state.context.limits, state.context.extendedDebateRequested),
          where,
        );
      }
    });

    it('replaying each path from its event log rebuilds the same session', () => {
      for (const path of pathsOf(walk)) {
        // The first step of every path is the synthetic `xstate.init`.
        const events = [...walk.prefix, ...path.steps.slice(1).map(step => step.event)];
        const replayed = replaySession(input, events);
        assert.equal(replayed.value, path.state.value);
        assert.deepStrictEqual(replayed.context, path.state.context);
      }
    });
  });
}

describe('session machine: model-based coverage @slow', () => {
  it('the walks reach every state of the spec diagram, every limit and both endings', () => {
    const states = walks.flatMap(walk => pathsOf(walk).map(path => path.state));
    assert.deepStrictEqual([...new Set(states.map(s => s.value))].sort(), [
      'cancelled',
      'clarifying',
      'completed',
      'created',
      'debating',
      'final',
    ]);
    assert.ok(
      states.some(s => s.context.clarificationRounds === 2),
      'the round limit is reached',
    );
    assert.ok(
      states.some(
        s =>
          s.context.discussions.some(d => d.status === 'limit_reached') &&
          s.context.extendedDebateRequested &&
          s.value === 'final',
      ),
      'the extended limit is reached',
    );
    assert.ok(
      states.some(s => s.context.assumptionLog.some(a => a.withdrawal?.reason === 'answered')),
      'a revisited question is answered',
    );
    assert.ok(
      states.some(s => s.context.assumptionLog.some(a => a.withdrawal?.reason === 'superseded')),
      'a revisited question is skipped again',
    );
  });
});
