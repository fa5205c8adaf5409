import { strict as assert } from 'node:assert';
import type { ConversationSession } from '../../../../src/core/session/session';
import { sessionView } from '../../../support/sessionViews';
import type { ValidationIssue } from '../../../support/sessionValidation/issues';
import { validateSession } from '../../../support/sessionValidation/validateSession';
import { ev, fullCycle, PERSONA_NAMES, run } from './fixtures';

/**
 * A completed session touching every entity. Its turns, in order:
 * 0 question q1, 1 answer a1, 2 question q2, 3 assumption as1 (q2 deferred),
 * 4-5 discussion (architect, developer), 6-7 conclusions (architect, developer).
 */
function completedSession(): ConversationSession {
  const snapshot = run([
    ev.select(),
    ev.clarify(['q1', 'q2'], 2),
    ev.answer('a1', 3),
    ev.skip('as1', 4),
    ...fullCycle(1, true),
    ev.conclusion('architect', 61),
    ev.conclusion('developer', 62),
    ev.finalAnswer(70),
  ]);
  assert.equal(snapshot.value, 'completed');
  return structuredClone(sessionView(snapshot));
}

/** A session still clarifying: q1 active, q2 pending. */
function clarifyingSession(): ConversationSession {
  return structuredClone(sessionView(run([ev.select(), ev.clarify(['q1', 'q2'], 2)])));
}

function issuesOf(session: unknown, personaNames: ReadonlySet<string> = PERSONA_NAMES): readonly ValidationIssue[] {
  return validateSession(session, { personaNames });
}

/** Asserts one of the issues is at `path` with a message matching `message`. */
function assertIssue(issues: readonly ValidationIssue[], path: string, message: RegExp): void {
  assert.ok(
    issues.some(issue => issue.path === path && message.test(issue.message)),
    `expected an issue at ${path} matching ${message}, got ${JSON.stringify(issues, null, 1)}`,
  );
}

interface Case {
  readonly rule: string;
  readonly base?: () => ConversationSession;
  readonly breakIt: (session: ConversationSession) => void;
  readonly path: string;
  readonly message: RegExp;
  /** The persona contracts that exist, when the case narrows them. */
  readonly personaNames?: ReadonlySet<string>;
}

function turn(session: ConversationSession, index: number) {
  const found = session.messageTurns[index];
  if (found === undefined) throw new Error(`fixture has no turn ${index}`);
  return found;
}

const cases: readonly Case[] = [
  // Shape (the zod schema)
  {
    rule: 'an answered question carries its answer id',
    breakIt: s => {
      Reflect.deleteProperty(s.questions[0] ?? {}, 'answerId');
    },
    path: 'questions[0].answerId',
    message: /./,
  },
  {
    rule: 'a user override names personas',
    breakIt: s => {
      s.selection = { ...s.selection!, userOverride: true, overriddenPersonas: [] };
    },
    path: 'selection.overriddenPersonas',
    message: /./,
  },
  {
    rule: 'answer text is not blank',
    breakIt: s => {
      s.answers[0]!.answer = '  ';
    },
    path: 'answers[0].answer',
    message: /blank/,
  },
  {
    rule: 'a concluded cycle has a resolution summary',
    breakIt: s => {
      Reflect.deleteProperty(s.discussions[0] ?? {}, 'resolutionSummary');
    },
    path: 'discussions[0].resolutionSummary',
    message: /./,
  },
  {
    rule: 'a persona that changes position says why',
    breakIt: s => {
      Object.assign(turn(s, 4), { changedPosition: true });
    },
    path: 'messageTurns[4].changeReason',
    message: /say why/,
  },
  {
    rule: 'rounds never exceed 3',
    breakIt: s => {
      s.questions[1]!.roundNumber = 4;
    },
    path: 'questions[1].roundNumber',
    message: /./,
  },
  {
    rule: 'sequenceInRound starts at 1',
    breakIt: s => {
      s.questions[0]!.sequenceInRound = 0;
    },
    path: 'questions[0].sequenceInRound',
    message: /./,
  },
  {
    rule: 'the admin maximum is at least the cycle limit',
    breakIt: s => {
      s.limits.adminMaxDebateCycles = 5;
    },
    path: 'limits.adminMaxDebateCycles',
    message: /at least debateCycleLimit/,
  },
  // References
  {
    rule: 'turn ids are unique',
    breakIt: s => {
      turn(s, 1).turnId = turn(s, 0).turnId;
    },
    path: 'messageTurns[1].turnId',
    message: /duplicate/,
  },
  {
    rule: 'entities belong to the session',
    breakIt: s => {
      s.answers[0]!.sessionId = 'other';
    },
    path: 'answers[0].sessionId',
    message: /another session/,
  },
  {
    rule: 'senders are participants',
    breakIt: s => {
      Object.assign(turn(s, 4), { senderId: 'ghost' });
    },
    path: 'messageTurns[4].senderId',
    message: /unknown participant "ghost"/,
  },
  {
    rule: 'an answer turn carries an answer to its own question',
    breakIt: s => {
      Object.assign(turn(s, 1), { questionId: 'q2' });
    },
    path: 'messageTurns[1].answerId',
    message: /different question/,
  },
  // Temporal ordering
  {
    rule: 'sequence numbers are unique and strictly increasing',
    breakIt: s => {
      turn(s, 3).sequenceNumber = 3;
    },
    path: 'messageTurns[3].sequenceNumber',
    message: /strictly increasing \(3 follows 3\)/,
  },
  {
    rule: 'questions are ordered by round, then position',
    breakIt: s => {
      s.questions.reverse();
    },
    path: 'questions[1]',
    message: /ordered by roundNumber/,
  },
  {
    rule: 'no answer before its question was asked (timestamps)',
    breakIt: s => {
      s.answers[0]!.createdAt = '2024-12-31T00:00:00.000Z';
    },
    path: 'answers[0].createdAt',
    message: /before it was asked/,
  },
  {
    rule: 'no answer before its question was asked (turns)',
    breakIt: s => {
      s.messageTurns.splice(0, 1);
    },
    path: 'messageTurns[0]',
    message: /must follow the turn that asked/,
  },
  {
    rule: 'a cycle ends after it starts',
    breakIt: s => {
      Object.assign(s.discussions[0]!, { exchangeEnds: '2024-12-31T00:00:00.000Z' });
    },
    path: 'discussions[0].exchangeEnds',
    message: /end before it starts/,
  },
  // Message type vs status and sender
  {
    rule: 'questions only while clarifying',
    breakIt: s => {
      turn(s, 0).sessionStatus = 'debating';
    },
    path: 'messageTurns[0].sessionStatus',
    message: /question turn is only allowed while clarifying/,
  },
  {
    rule: 'answers come from the user',
    breakIt: s => {
      Object.assign(turn(s, 1), { senderId: 'architect' });
    },
    path: 'messageTurns[1].senderId',
    message: /must come from a user/,
  },
  {
    rule: 'discussion comes from personas',
    breakIt: s => {
      Object.assign(turn(s, 4), { senderId: 'user-1' });
    },
    path: 'messageTurns[4].senderId',
    message: /must come from a persona/,
  },
  {
    rule: 'conclusions only after the debate',
    breakIt: s => {
      turn(s, 6).sessionStatus = 'debating';
    },
    path: 'messageTurns[6].sessionStatus',
    message: /conclusion turn is only allowed while final/,
  },
  {
    rule: 'assumption statements only while clarifying',
    breakIt: s => {
      turn(s, 3).sessionStatus = 'final';
    },
    path: 'messageTurns[3].sessionStatus',
    message: /assumption_statement/,
  },
  // State consistency
  {
    rule: 'completed requires the final answer',
    breakIt: s => {
      delete s.finalAnswer;
    },
    path: 'finalAnswer',
    message: /completed session needs its final answer/,
  },
  {
    rule: 'completed requires message turns',
    breakIt: s => {
      s.messageTurns = [];
      s.discussions = [];
      s.debateCycles = 0;
    },
    path: 'messageTurns',
    message: /cannot complete without any message turns/,
  },
  {
    rule: 'only a completed session has a final answer',
    breakIt: s => {
      s.status = 'final';
    },
    path: 'finalAnswer',
    message: /only a completed session/,
  },
  {
    rule: 'clarifying has exactly one active question',
    base: clarifyingSession,
    breakIt: s => {
      delete s.activeQuestionId;
    },
    path: 'activeQuestionId',
    message: /exactly one pending question is active/,
  },
  {
    rule: 'no active question outside clarifying',
    breakIt: s => {
      s.activeQuestionId = 'q1';
    },
    path: 'activeQuestionId',
    message: /no question is active while completed/,
  },
  {
    rule: 'no pending question after clarifying',
    breakIt: s => {
      s.questions[1] = { ...s.questions[1]!, status: 'pending' };
    },
    path: 'questions[1].status',
    message: /no question is pending while completed/,
  },
  {
    rule: 'no cycle in progress after the debate',
    breakIt: s => {
      s.discussions[0] = { ...s.discussions[0]!, status: 'in_progress' };
      s.debateCycles = 0;
    },
    path: 'discussions[0].status',
    message: /no debate cycle is in progress while completed/,
  },
  {
    rule: 'the round counter matches the questions',
    breakIt: s => {
      s.clarificationRounds = 2;
    },
    path: 'clarificationRounds',
    message: /counts 2 rounds but the questions span 1/,
  },
  {
    rule: 'the cycle counter matches the ended cycles',
    breakIt: s => {
      s.debateCycles = 2;
    },
    path: 'debateCycles',
    message: /counts 2 cycles but 1 debate cycles ended/,
  },
  {
    rule: 'at most one conclusion per persona before the final answer',
    breakIt: s => {
      Object.assign(turn(s, 7), { senderId: 'architect' });
    },
    path: 'messageTurns[7]',
    message: /at most one conclusion/,
  },
  {
    rule: 'a created session has nothing yet',
    base: clarifyingSession,
    breakIt: s => {
      s.status = 'created';
      delete s.activeQuestionId;
    },
    path: 'status',
    message: /created session has no questions/,
  },
  {
    rule: 'a running session has its persona selection',
    breakIt: s => {
      delete s.selection;
    },
    path: 'selection',
    message: /needs its persona selection/,
  },
  // Limits
  {
    rule: 'clarification rounds stay within the configured limit',
    base: () => structuredClone(sessionView(run([ev.select(), ev.clarify(['q1'], 2), ev.more(['q2'], 3)]))),
    breakIt: s => {
      s.limits.maxClarificationRounds = 1;
    },
    path: 'clarificationRounds',
    message: /at most 1 clarification rounds/,
  },
  {
    rule: 'no answer after the last allowed round',
    base: () =>
      structuredClone(
        sessionView(
          run([ev.select(), ev.clarify(['q1'], 2), ev.more(['q2'], 3), ev.answer('a1', 4), ev.answer('a2', 5)]),
        ),
      ),
    breakIt: s => {
      s.limits.maxClarificationRounds = 1;
    },
    path: 'messageTurns[3]',
    message: /no answer is possible after round 1/,
  },
  {
    rule: 'debate cycles stay within the limit',
    breakIt: s => {
      s.limits.debateCycleLimit = 1;
      s.limits.adminMaxDebateCycles = 1;
      s.debateCycles = 2;
    },
    path: 'debateCycles',
    message: /at most 1 debate cycles/,
  },
  {
    rule: 'no discussion after the cycle limit',
    breakIt: s => {
      s.limits.debateCycleLimit = 1;
      s.limits.adminMaxDebateCycles = 1;
      s.discussions[0]!.cycleNumber = 2;
      Object.assign(turn(s, 4), { relatedCycleOrRound: { cycleType: 'debate', number: 2 } });
    },
    path: 'messageTurns[4]',
    message: /no discussion is possible after the cycle limit of 1/,
  },
  {
    rule: 'no cycle after the one that hit the limit unless extended',
    base: () =>
      structuredClone(
        sessionView(
          run([ev.select(), ev.debate(2), ...fullCycle(1, false), ev.extend(50), ...fullCycle(2, true)], {
            limits: { debateCycleLimit: 1, adminMaxDebateCycles: 2 },
          }),
        ),
      ),
    breakIt: s => {
      s.extendedDebateRequested = false;
      s.limits.debateCycleLimit = 1;
      s.limits.adminMaxDebateCycles = 3;
    },
    path: 'discussions[1]',
    message: /unless the debate was extended/,
  },
  {
    rule: 'an unconverged cycle at the limit is limit_reached',
    base: () => structuredClone(sessionView(run([ev.select(), ev.debate(2), ...fullCycle(1, false)]))),
    breakIt: s => {
      s.limits.debateCycleLimit = 1;
      s.limits.adminMaxDebateCycles = 1;
    },
    path: 'discussions[0].status',
    message: /must be marked limit_reached/,
  },
  {
    rule: 'limit_reached only at the limit',
    base: () =>
      structuredClone(
        sessionView(run([ev.select(), ev.debate(2), ...fullCycle(1, false)], { limits: { debateCycleLimit: 1 } })),
      ),
    breakIt: s => {
      s.limits.debateCycleLimit = 2;
      s.limits.adminMaxDebateCycles = 2;
    },
    path: 'discussions[0].status',
    message: /did not reach the limit of 2/,
  },
  // Participants and selection
  {
    rule: 'at most one user',
    breakIt: s => {
      s.participants.push({ participantId: 'user-2', type: 'user', name: 'User' });
    },
    path: 'participants',
    message: /at most one user/,
  },
  {
    rule: 'the council has a persona',
    base: () => structuredClone(sessionView(run([ev.select(), ev.debate(2)]))),
    breakIt: s => {
      s.participants = s.participants.filter(p => p.type === 'user');
      s.selection = undefined;
    },
    path: 'participants',
    message: /at least one persona/,
  },
  {
    rule: 'personas match persona contracts',
    breakIt: () => undefined,
    personaNames: new Set(['Senior Developer', 'Security Expert']),
    path: 'participants[1].name',
    message: /"Software Architect" is not a council persona/,
  },
  {
    rule: 'selected personas are persona participants',
    breakIt: s => {
      s.selection!.selectedPersonaIds = ['user-1'];
    },
    path: 'selection.selectedPersonaIds[0]',
    message: /not a persona of this session/,
  },
  {
    rule: 'overridden personas are persona contracts',
    breakIt: s => {
      s.selection = { ...s.selection!, userOverride: true, overriddenPersonas: ['Wizard'] };
    },
    path: 'selection.overriddenPersonas[0]',
    message: /"Wizard" is not a council persona/,
  },
  // Clarification questions, answers and assumptions
  {
    rule: 'an answered question has its ClarificationAnswer',
    breakIt: s => {
      s.questions[0] = {
        ...s.questions[0]!,
        status: 'answered',
        answerId: 'a-missing',
        answeredAt: s.questions[0]!.createdAt,
      };
    },
    path: 'questions[0].answerId',
    message: /needs its ClarificationAnswer/,
  },
  {
    rule: 'a skip command mentions a skip keyword',
    breakIt: s => {
      s.answers[0]!.skipCommand = true;
    },
    path: 'answers[0].answer',
    message: /skip keyword/,
  },
  {
    rule: 'a deferred question has an assumption in its place',
    breakIt: s => {
      s.assumptionLog[0]!.withdrawal = { reason: 'answered', answerId: 'a1', at: s.updatedAt };
    },
    path: 'questions[1]',
    message: /deferred question needs an assumption/,
  },
  {
    rule: 'a question has at most one standing assumption',
    breakIt: s => {
      s.assumptionLog.push({ ...s.assumptionLog[0]!, assumptionId: 'as2' });
    },
    path: 'questions[1]',
    message: /at most one standing assumption/,
  },
  {
    rule: 'an answered question keeps no standing assumption',
    breakIt: s => {
      s.assumptionLog[0]!.relatedQuestionId = 'q1';
    },
    path: 'questions[0]',
    message: /cannot keep a standing assumption/,
  },
  // Discussions
  {
    rule: 'a true discussion has two personas when the council has them',
    breakIt: s => {
      s.discussions[0]!.participatingPersonaIds = ['architect'];
    },
    path: 'discussions[0].participatingPersonaIds',
    message: /at least two personas/,
  },
  {
    rule: 'a cycle ends after every persona spoke',
    breakIt: s => {
      s.discussions[0]!.messageTurnIds.pop();
    },
    path: 'discussions[0]',
    message: /every participating persona has spoken/,
  },
  {
    rule: 'an ended cycle records one position per persona',
    breakIt: s => {
      const d = s.discussions[0]!;
      if (d.status !== 'in_progress') d.positions.pop();
    },
    path: 'discussions[0].positions',
    message: /one position per participating persona/,
  },
  {
    rule: 'discussion turns are listed in their cycle',
    breakIt: s => {
      s.discussions[0]!.messageTurnIds.pop();
    },
    path: 'messageTurns[5]',
    message: /listed in its cycle/,
  },
  {
    rule: 'a persona speaks once per cycle',
    breakIt: s => {
      Object.assign(turn(s, 5), { senderId: 'architect' });
    },
    path: 'discussions[0].messageTurnIds[1]',
    message: /speaks once per cycle/,
  },
];

describe('validateSession', () => {
  it('accepts a complete, valid session', () => {
    assert.deepStrictEqual(issuesOf(completedSession()), []);
    assert.deepStrictEqual(issuesOf(clarifyingSession()), []);
  });

  it('reports a malformed record through the schema instead of throwing', () => {
    assertIssue(issuesOf({ sessionId: 's' }), 'userId', /./);
    assert.ok(issuesOf(null).length > 0);
  });

  for (const testCase of cases) {
    it(`enforces: ${testCase.rule}`, () => {
      const session = (testCase.base ?? completedSession)();
      assert.deepStrictEqual(issuesOf(session), [], 'the base session is valid');
      testCase.breakIt(session);
      assertIssue(issuesOf(session, testCase.personaNames), testCase.path, testCase.message);
    });
  }

  it('accepts a skip command that says "skip"', () => {
    const session = completedSession();
    session.answers[0]!.skipCommand = true;
    session.answers[0]!.answer = 'Skip question';
    assert.deepStrictEqual(issuesOf(session), []);
  });
});
