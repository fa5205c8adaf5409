import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import { voteIsStable, voteTally } from '../../../../src/core/council/councilVote';
import type { AttributedContribution, DebateCycleRecord } from '../../../../src/core/council/prompts/promptData';
import { voteSentence } from '../../../../src/core/council/wording/markdown';
import { messageText } from '../../../../src/core/llm/usage';
import { councilResponder, councilRig } from '../../../support/councilHarness';
import { speakerOf } from '../../../support/councilScript';
import { sessionView } from '../../../support/sessionViews';

const said = (persona: string, extra: Partial<AttributedContribution> = {}): AttributedContribution => ({
  persona,
  position: `${persona}'s plan.`,
  argument: 'Because.',
  keyPoints: ['A fact.'],
  changedPosition: false,
  agreesWith: [],
  concerns: [],
  ...extra,
});
const cycle = (n: number, ...contributions: AttributedContribution[]): DebateCycleRecord => ({
  cycle: n,
  contributions,
});

describe('the council vote', () => {
  const first = cycle(1, said('Ana'), said('Bo'), said('Cy'));

  it('no tally before anyone voted', () => {
    assert.equal(voteTally([first]), undefined);
    assert.match(voteSentence(undefined), /^Vote: none/);
  });

  it('tallies the latest ballot of each persona; one who did not speak again keeps backing its own', () => {
    const second = cycle(
      2,
      said('Ana', { vote: 'Ana', confidence: 'high' }),
      said('Bo', { vote: 'Ana', confidence: 'medium', changedPosition: true, changeReason: 'Ana is right.' }),
    );
    const tally = voteTally([first, second])!;
    assert.deepEqual(
      tally.counts.map(c => [c.holder, c.voters]),
      [
        ['Ana', ['Ana', 'Bo']],
        ['Cy', ['Cy']],
      ],
    );
    assert.equal(tally.leader, 'Ana');
    assert.deepEqual(tally.dissent, ['Cy']);
    assert.equal(
      voteSentence(tally),
      "Vote: 2 of 3 back Ana's position (confidence high, medium); dissent: Cy (not stated).",
    );
  });

  it('a persona that votes for an equivalent position it agrees with does not dissent', () => {
    const second = cycle(
      2,
      said('Ana', { vote: 'Bo', agreesWith: ['Bo', 'Cy'] }),
      said('Bo', { vote: 'Ana', agreesWith: ['Ana', 'Cy'] }),
      said('Cy', { vote: 'Ana', agreesWith: ['Ana', 'Bo'] }),
    );
    const tally = voteTally([first, second])!;
    assert.equal(tally.leader, 'Ana');
    assert.deepEqual(tally.dissent, [], 'everyone agrees with the leading position');
  });

  it('a tie has no leader and no dissent', () => {
    const tally = voteTally([cycle(2, said('Ana', { vote: 'Ana' }), said('Bo', { vote: 'Bo' }))])!;
    assert.equal(tally.leader, undefined);
    assert.match(
      voteSentence(tally),
      /^Vote: tied, 1 for Ana's position \(confidence not stated\), 1 for Bo's position \(confidence not stated\); dissent: none\.$/,
    );
  });

  it('stable: nobody moved its ballot or position in the last cycle; a first vote for someone else is a move', () => {
    const held = cycle(2, said('Ana', { vote: 'Ana' }), said('Bo', { vote: 'Bo' }), said('Cy', { vote: 'Cy' }));
    assert.equal(voteIsStable([first, held]), true);
    const moved = cycle(2, said('Ana', { vote: 'Ana' }), said('Bo', { vote: 'Ana' }), said('Cy', { vote: 'Cy' }));
    assert.equal(voteIsStable([first, moved]), false);
    const changed = cycle(2, said('Ana', { vote: 'Ana', changedPosition: true, changeReason: 'x' }));
    assert.equal(voteIsStable([first, changed]), false);
    assert.equal(voteIsStable([first, moved, cycle(3, said('Bo', { vote: 'Ana' }), said('Cy', { vote: 'Cy' }))]), true);
    assert.equal(voteIsStable([first]), false, 'a first cycle has no vote');
  });

  it('a council that holds its positions stops after cycle 2, says why, and the answer reports the vote and the dissent', async () => {
    const script = {
      personaIds: ['senior-developer', 'security-expert', 'software-architect'],
      convergeAtCycle: 'never' as const,
    };
    const rig = await councilRig({
      script,
      responder: councilResponder(script, (step, request) => {
        if (step !== 'contribute_to_debate') return undefined;
        const prompt = request.messages.map(messageText).join('\n');
        const speaker = speakerOf(prompt);
        const later = !/This is debate cycle 1\./.test(prompt);
        return {
          kind: 'value',
          value: {
            position: `${speaker} holds.`,
            argument: 'Because.',
            keyPoints: [`${speaker}'s fact.`],
            changedPosition: false,
            agreesWith: [],
            concerns: [],
            confidence: speaker === 'Security Expert' ? 'low' : 'high',
            // The Senior Developer backs the Software Architect from cycle 2 on; the others back themselves.
            ...(later ? { vote: speaker === 'Senior Developer' ? 'Position B' : 'my own' } : {}),
          },
        };
      }),
    });
    const log = newCouncilSession(
      {
        request: 'Split the service?',
        userId: 'u',
        limits: { maxClarificationRounds: 3, debateCycleLimit: 5, adminMaxDebateCycles: 5 },
        skipClarification: true,
      },
      rig.deps,
    );
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    const view = sessionView(log.snapshot);
    // Cycle 2 moved the Senior Developer's vote; cycle 3 moved nothing: the debate ends there, not at the limit of 5.
    assert.equal(view.debateCycles, 3);
    const last = view.discussions.at(-1);
    assert.ok(last?.status === 'concluded' && last.stoppedByStableVote);
    const answer = view.finalAnswer ?? '';
    assert.match(
      answer,
      /### The vote\n\n- \*\*Software Architect's position\*\* \(2 of 3\): Software Architect holds\. — Senior Developer \(high\), Software Architect \(high\)/,
    );
    assert.match(answer, /Dissent: Security Expert \(low\)\./);
    assert.match(answer, /### Still contested when the debate stopped/);
  });
});
