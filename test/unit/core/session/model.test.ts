import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { ClarificationQuestion } from '../../../../src/core/session/clarification';
import { mentionsSkipKeyword } from '../../../support/sessionValidation/clarificationRules';
import { CouncilDiscussion } from '../../../../src/core/session/discussion';
import { SessionEvent } from '../../../../src/core/session/events';
import { PersonaSelection } from '../../../../src/core/session/participants';
import { ConversationSession } from '../../../../src/core/session/session';
import { PersonaPosition, stanceProblem } from '../../../../src/core/session/stance';
import { currentFinalRun, MessageTurn } from '../../../../src/core/session/turns';
import { finalRuns } from '../../../support/sessionValidation/finalRuns';
import { at, ev, fullCycle, run } from './fixtures';

describe('session domain model', () => {
  it('publishes JSON Schemas for the session record and the events', () => {
    const session = z.toJSONSchema(ConversationSession) as { required?: readonly string[] };
    assert.ok(session.required?.includes('messageTurns'));
    const events = JSON.stringify(z.toJSONSchema(SessionEvent));
    for (const type of ['PERSONAS_SELECTED', 'QUESTION_SKIPPED', 'CYCLE_CONCLUDED', 'DEBATE_EXTENDED', 'CANCELLED'])
      assert.ok(events.includes(type), type);
  });

  it('a question carries an answer id exactly when answered', () => {
    const base = {
      questionId: 'q1',
      sessionId: 's',
      roundNumber: 1,
      sequenceInRound: 1,
      question: 'Q?',
      targetAmbiguity: 'scope',
      askedBy: { kind: 'system' },
      createdAt: at(1),
    };
    assert.equal(ClarificationQuestion.safeParse({ ...base, status: 'pending' }).success, true);
    assert.equal(ClarificationQuestion.safeParse({ ...base, status: 'answered' }).success, false);
    assert.equal(
      ClarificationQuestion.safeParse({ ...base, status: 'answered', answerId: 'a1', answeredAt: at(2) }).success,
      true,
    );
    assert.equal(
      ClarificationQuestion.safeParse({ ...base, status: 'pending', askedBy: { kind: 'personas', personaIds: [] } })
        .success,
      false,
    );
  });

  it('a selection overridden by the user names the personas', () => {
    const base = {
      selectionId: 'x',
      sessionId: 's',
      requestClassification: 'security',
      selectedPersonaIds: ['p'],
      reason: 'r',
      createdAt: at(1),
    };
    assert.equal(PersonaSelection.safeParse({ ...base, userOverride: false }).success, true);
    assert.equal(PersonaSelection.safeParse({ ...base, userOverride: true }).success, false);
    assert.equal(
      PersonaSelection.safeParse({ ...base, userOverride: true, overriddenPersonas: ['Security Expert'] }).success,
      true,
    );
    assert.equal(PersonaSelection.safeParse({ ...base, selectedPersonaIds: [], userOverride: false }).success, false);
  });

  it('a limit_reached cycle cannot claim convergence and needs its summary', () => {
    const base = {
      discussionId: 'd',
      sessionId: 's',
      cycleNumber: 1,
      participatingPersonaIds: ['p'],
      exchangeStarts: at(1),
      topic: 't',
      messageTurnIds: [],
    };
    const outcome = { exchangeEnds: at(2), resolutionSummary: 'split', positions: [] };
    assert.equal(
      CouncilDiscussion.safeParse({ ...base, status: 'limit_reached', ...outcome, converged: false }).success,
      true,
    );
    assert.equal(
      CouncilDiscussion.safeParse({ ...base, status: 'limit_reached', ...outcome, converged: true }).success,
      false,
    );
    assert.equal(
      CouncilDiscussion.safeParse({ ...base, status: 'concluded', exchangeEnds: at(2), positions: [], converged: true })
        .success,
      false,
    );
  });

  it('a stance that changed says why, and only then', () => {
    assert.equal(stanceProblem({ position: 'A', changedPosition: false }), undefined);
    assert.match(stanceProblem({ position: 'A', changedPosition: true }) ?? '', /say why/);
    assert.match(stanceProblem({ position: 'A', changedPosition: false, changeReason: 'x' }) ?? '', /only given when/);
    assert.match(stanceProblem({ position: ' ', changedPosition: false }) ?? '', /state a position/);
    assert.equal(
      PersonaPosition.safeParse({ personaId: 'p', position: 'A', changedPosition: true, changeReason: 'new data' })
        .success,
      true,
    );
    assert.equal(PersonaPosition.safeParse({ personaId: 'p', position: 'A', changedPosition: true }).success, false);
  });

  it('recognises skip keywords as whole words', () => {
    assert.equal(mentionsSkipKeyword('Skip question'), true);
    assert.equal(mentionsSkipKeyword('skipped, ask me later'), true);
    assert.equal(mentionsSkipKeyword('I pass'), true);
    assert.equal(mentionsSkipKeyword('Use a passport check'), false);
    assert.equal(mentionsSkipKeyword('Two weeks'), false);
  });

  it('finds the runs of final-phase turns each persona concludes once in', () => {
    const turns: MessageTurn[] = run([ev.select(), ev.debate(2), ...fullCycle(1, true), ev.conclusion('architect', 61)])
      .context.messageTurns;
    assert.deepStrictEqual(
      currentFinalRun(turns).map(t => t.messageType),
      ['conclusion'],
    );
    assert.equal(finalRuns(turns).length, 1);
    assert.deepStrictEqual(currentFinalRun(turns.slice(0, -1)), []);
    assert.equal(finalRuns([]).length, 0);
  });
});
