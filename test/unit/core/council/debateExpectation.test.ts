import * as assert from 'node:assert/strict';
import { estimateDebate, expectDebate, shapeTokens } from '../../../../src/core/council/debatePlan';

const NOTHING_MEASURED = { input: 0, output: 0 };

describe('expectDebate (what a debate will probably cost)', () => {
  it('economy: the drafts, one later cycle among half the seats, the answer — below the bound', () => {
    const bound = estimateDebate('economy', 4, 10, 11);
    const expected = expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED);
    assert.equal(bound.total, 11);
    assert.equal(expected.requests, 4 + 2 + 1);
    assert.ok(expected.requests < bound.total);
  });

  it('economy with two seats: a later cycle seats both', () => {
    const bound = estimateDebate('economy', 2, 10, 20);
    assert.equal(expectDebate(bound, 'economy', 2, 500, NOTHING_MEASURED).requests, 2 + 2 + 1);
  });

  it('thorough: one later cycle with everyone and the moderator', () => {
    const bound = estimateDebate('thorough', 3, 10, 30);
    assert.equal(expectDebate(bound, 'thorough', 3, 500, NOTHING_MEASURED).requests, 4 + 4 + 1);
  });

  it('never above the bound when the budget leaves no later cycle', () => {
    const bound = estimateDebate('economy', 4, 10, 5);
    assert.equal(bound.laterCycleCount, 0);
    assert.equal(expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED).requests, bound.total);
  });

  it('nothing when the debate cannot start', () => {
    const bound = estimateDebate('economy', 4, 10, 2);
    assert.deepEqual(expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED), { requests: 0, input: 0, output: 0 });
  });

  it('uses the sizes measured in the session when there are any', () => {
    const bound = estimateDebate('economy', 4, 10, 11);
    const planned = expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED);
    const measured = expectDebate(bound, 'economy', 4, 500, { input: 1000, output: 300 });
    assert.equal(measured.input, 7 * 1000);
    assert.equal(measured.output, 7 * 300 + (planned.output - 7 * 600));
    assert.ok(planned.input > 7 * 500, 'before any request: the context plus instructions and positions');
  });

  describe("by the opening's read", () => {
    const bound = estimateDebate('economy', 4, 10, 11);

    it('agree: the first drafts and the answer', () => {
      assert.equal(expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED, 1, 'agree').requests, 4 + 1);
    });

    it('debate: one later cycle among about half the seats, as without a read', () => {
      assert.deepEqual(
        expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED, 1, 'debate'),
        expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED),
      );
    });

    it('standoff: the bound', () => {
      assert.equal(expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED, 1, 'standoff').requests, bound.total);
      const thorough = estimateDebate('thorough', 4, 10, 24);
      assert.equal(
        expectDebate(thorough, 'thorough', 4, 500, NOTHING_MEASURED, 1, 'standoff').requests,
        thorough.total,
      );
    });

    it('thorough drafts that agree need no moderator; with workspace look-ups each seat costs its rounds', () => {
      const thorough = estimateDebate('thorough', 4, 10, 24);
      assert.equal(expectDebate(thorough, 'thorough', 4, 500, NOTHING_MEASURED, 1, 'agree').requests, 4 + 1);
      const grounded = estimateDebate('economy', 4, 10, 40, 3);
      assert.equal(expectDebate(grounded, 'economy', 4, 500, NOTHING_MEASURED, 3, 'agree').requests, 12 + 1);
    });

    it('never above the bound, whatever the read', () => {
      const tight = estimateDebate('economy', 4, 10, 5);
      for (const outlook of ['agree', 'debate', 'standoff'] as const)
        assert.ok(expectDebate(tight, 'economy', 4, 500, NOTHING_MEASURED, 1, outlook).requests <= tight.total);
    });
  });

  it('tokens per request before any contribution: the context and a step, not the positions of every seat', () => {
    const bound = estimateDebate('economy', 4, 10, 11);
    const agree = expectDebate(bound, 'economy', 4, 500, NOTHING_MEASURED, 1, 'agree');
    assert.equal(agree.input, 5 * (500 + 1_500));
    const tokens = shapeTokens({ requests: 5, later: 0, answer: 1 }, 'economy', 4, 500);
    assert.deepEqual(tokens, { input: agree.input, output: agree.output });
    // Thorough: a later cycle's request also reads every seat's latest argument.
    const thorough = shapeTokens({ requests: 10, later: 5, answer: 1 }, 'thorough', 4, 500);
    const economy = shapeTokens({ requests: 10, later: 5, answer: 1 }, 'economy', 4, 500);
    assert.equal(thorough.input - economy.input, 5 * 4 * 600);
  });
});
