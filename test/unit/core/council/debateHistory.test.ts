import * as assert from 'node:assert/strict';
import {
  debateTokens,
  estimateDebate,
  EXPECTED_OUTPUT_TOKENS,
  expectDebate,
} from '../../../../src/core/council/debatePlan';
import {
  DEBATE_HISTORY_LENGTH,
  expectFromHistory,
  readDebateHistory,
  reforecastAfterFirstVote,
  rememberDebate,
} from '../../../../src/core/council/debateHistory';
import type { DebateOutcome } from '../../../../src/core/council/debateOutcome';
import { debateOutcome } from '../../../support/debateOutcomes';

const NOTHING_MEASURED = { input: 0, output: 0 };

const AGREED = debateOutcome({});
const SETTLED = debateOutcome({
  ending: { kind: 'settled', cycle: 2 },
  laterCycles: 2,
  inputTokens: 11_600,
  outputTokens: 3_466,
});
const TO_THE_LIMIT = debateOutcome({
  ending: { kind: 'limit' },
  laterCycles: 6,
  inputTokens: 18_800,
  outputTokens: 5_610,
});

function ratio(expected: number, spent: number): number {
  return expected / spent;
}

describe('expectFromHistory (the expected figure from the workspace’s finished debates)', () => {
  const bound = estimateDebate('economy', 4, 10, 11);

  it('without history it is the prior', () => {
    assert.deepEqual(
      expectFromHistory(bound, 'economy', 4, 500, NOTHING_MEASURED, []),
      expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED),
    );
  });

  it('ignores another protocol’s debates', () => {
    const thorough = debateOutcome({ protocol: 'thorough', laterCycles: 5 });
    assert.deepEqual(
      expectFromHistory(bound, 'economy', 4, 500, NOTHING_MEASURED, [thorough]),
      expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED),
    );
  });

  for (const [name, kind] of [
    ['agreed at the first vote', AGREED],
    ['settled in cycle 2', SETTLED],
    ['ran to the limit', TO_THE_LIMIT],
  ] as const) {
    it(`after a few debates that ${name}, it follows them within 0.8–1.25 (requests and tokens)`, () => {
      const history = [kind, kind, kind];
      const expected = expectFromHistory(bound, 'economy', 4, 500, NOTHING_MEASURED, history);
      const spentRequests = kind.drafts + kind.laterCycles + kind.answer;
      const spentTokens = kind.inputTokens + kind.outputTokens;
      for (const r of [ratio(expected.requests, spentRequests), ratio(expected.input + expected.output, spentTokens)])
        assert.ok(r >= 0.8 && r <= 1.25, `ratio ${r}`);
      assert.ok(expected.requests <= bound.total);
    });
  }

  it('scales later cycles to this council’s seats and never goes above the bound', () => {
    const bound6 = estimateDebate('economy', 6, 10, 8);
    const expected = expectFromHistory(bound6, 'economy', 6, 500, NOTHING_MEASURED, [TO_THE_LIMIT]);
    assert.equal(expected.requests, bound6.total);
  });

  it('thorough drafts that agreed at the first vote needed no moderator: the expected figure follows them', () => {
    const thoroughBound = estimateDebate('thorough', 4, 10, 6);
    const agreed = debateOutcome({ protocol: 'thorough', drafts: 4 });
    assert.equal(expectFromHistory(thoroughBound, 'thorough', 4, 500, NOTHING_MEASURED, [agreed]).requests, 4 + 1);
    assert.equal(expectDebate(thoroughBound, 'thorough', 4, 500, NOTHING_MEASURED).requests, 5 + 1);
  });

  it('a mixed history lands between its debates', () => {
    const expected = expectFromHistory(bound, 'economy', 4, 500, NOTHING_MEASURED, [AGREED, TO_THE_LIMIT]);
    assert.equal(expected.requests, 4 + 3 + 1);
  });

  it('with the opening’s read, a mixed history gives the debates of the same read: each case within 0.8–1.25', () => {
    const history = [
      { ...AGREED, outlook: 'agree' as const },
      { ...SETTLED, outlook: 'debate' as const },
      { ...TO_THE_LIMIT, outlook: 'standoff' as const },
    ];
    for (const spent of history) {
      const expected = expectFromHistory(bound, 'economy', 4, 500, NOTHING_MEASURED, history, 1, spent.outlook);
      const spentRequests = spent.drafts + spent.laterCycles + spent.answer;
      assert.equal(expected.requests, spentRequests, spent.outlook);
      const tokens = ratio(expected.input + expected.output, spent.inputTokens + spent.outputTokens);
      assert.ok(tokens >= 0.8 && tokens <= 1.25, `${spent.outlook}: tokens ${tokens}`);
    }
  });

  it('a read no earlier debate had: the prior for that read, not the others’ mean', () => {
    const history = [{ ...AGREED, outlook: 'agree' as const }];
    assert.deepEqual(
      expectFromHistory(bound, 'economy', 4, 500, NOTHING_MEASURED, history, 1, 'standoff'),
      expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED, 1, 'standoff'),
    );
  });

  it('leaves out a debate its limit stopped before any later cycle while this bound allows some', () => {
    const cut = debateOutcome({ ending: { kind: 'limit' }, laterCycles: 0, outlook: 'debate' });
    const settled = { ...SETTLED, outlook: 'debate' as const };
    assert.equal(
      expectFromHistory(bound, 'economy', 4, 500, NOTHING_MEASURED, [cut, settled], 1, 'debate').requests,
      7,
    );
    const noLaterCycle = estimateDebate('economy', 4, 10, 5);
    assert.equal(noLaterCycle.laterCycleCount, 0);
    assert.equal(
      expectFromHistory(noLaterCycle, 'economy', 4, 500, NOTHING_MEASURED, [cut], 1, 'debate').requests,
      noLaterCycle.total,
    );
  });

  it('tokens follow how this workspace’s requests compared with the prior, for this debate’s own shape', () => {
    // Requests twice the prior's size in an agreed debate: a standoff expected here is twice its prior too.
    const prior = expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED, 1, 'agree');
    const doubled = {
      ...AGREED,
      outlook: 'agree' as const,
      inputTokens: 2 * prior.input,
      outputTokens: 2 * prior.output,
    };
    const expected = expectFromHistory(bound, 'economy', 4, 500, NOTHING_MEASURED, [doubled], 1, 'agree');
    assert.equal(expected.input, 2 * prior.input);
    assert.equal(expected.output, 2 * prior.output);
  });
});

describe('readDebateHistory (stored debates are untrusted)', () => {
  it('keeps a debate’s read and drops an entry whose read is not one Council gives', () => {
    const kept = readDebateHistory([{ ...AGREED, outlook: 'agree' }, { ...AGREED, outlook: 'certain' }, AGREED]);
    assert.deepEqual(kept, [{ ...AGREED, outlook: 'agree' }, AGREED]);
  });
});

describe('reforecastAfterFirstVote (the expected figure once the council’s agreement is known)', () => {
  const cycleOne = { requests: 4, inputTokens: 6_400, outputTokens: 1_600 };

  it('agreed: what was spent plus the answer', () => {
    const expected = reforecastAfterFirstVote(
      { spent: cycleOne, apart: 0, seats: 4, laterCyclesBound: 6, answer: 1 },
      [],
      'economy',
    );
    assert.equal(expected.requests, 5);
    assert.equal(expected.input, 8_000);
    assert.equal(expected.output, 2_000);
  });

  it('still apart without history: one cycle of those apart, then the answer', () => {
    const expected = reforecastAfterFirstVote(
      { spent: cycleOne, apart: 2, seats: 4, laterCyclesBound: 6, answer: 1 },
      [],
      'economy',
    );
    assert.equal(expected.requests, 4 + 2 + 1);
  });

  it('still apart with history of contested debates: their later cycles, capped by the bound', () => {
    const known = { spent: cycleOne, apart: 4, seats: 4, laterCyclesBound: 6, answer: 1 };
    assert.equal(reforecastAfterFirstVote(known, [TO_THE_LIMIT, AGREED], 'economy').requests, 4 + 6 + 1);
    assert.equal(
      reforecastAfterFirstVote({ ...known, laterCyclesBound: 3 }, [TO_THE_LIMIT], 'economy').requests,
      4 + 3 + 1,
    );
  });

  it('thorough and still apart: a full cycle with the moderator', () => {
    const expected = reforecastAfterFirstVote(
      { spent: { ...cycleOne, requests: 5 }, apart: 2, seats: 4, laterCyclesBound: 10, answer: 1 },
      [],
      'thorough',
    );
    assert.equal(expected.requests, 5 + 5 + 1);
  });

  it('thorough: a later request also reads every seat’s latest argument (about a cycle-1 reply each)', () => {
    const known = { spent: { ...cycleOne, requests: 5 }, apart: 2, seats: 4, laterCyclesBound: 10, answer: 1 };
    const thorough = reforecastAfterFirstVote(known, [], 'thorough');
    const asEconomy = reforecastAfterFirstVote({ ...known, apart: 5 }, [], 'economy');
    assert.equal(asEconomy.requests, thorough.requests, 'the same requests');
    // 5 later requests × 4 seats × 320 tokens (1,600 out over 5 requests).
    assert.equal(thorough.input - asEconomy.input, 5 * 4 * 320);
  });
});

describe('debateTokens (the bound’s tokens per request)', () => {
  it('thorough carries every seat’s whole argument beside its position; economy only positions', () => {
    const economy = debateTokens(10, 1_000, 4);
    const thorough = debateTokens(10, 1_000, 4, 'thorough');
    assert.equal(thorough.output, economy.output);
    assert.equal(thorough.input - economy.input, 10 * 4 * EXPECTED_OUTPUT_TOKENS);
  });
});

describe('the stored debate history', () => {
  it('keeps the last few debates', () => {
    let history: readonly DebateOutcome[] = [];
    for (let i = 0; i < DEBATE_HISTORY_LENGTH + 3; i++) history = rememberDebate(history, debateOutcome({ drafts: i }));
    assert.equal(history.length, DEBATE_HISTORY_LENGTH);
    assert.equal(history[0]!.drafts, 3);
  });

  it('drops malformed entries of a stored list', () => {
    const read = readDebateHistory([AGREED, { protocol: 'economy' }, 'x', { ...AGREED, seats: -1 }, SETTLED]);
    assert.deepEqual(read, [AGREED, SETTLED]);
    assert.deepEqual(readDebateHistory('nonsense'), []);
  });
});
