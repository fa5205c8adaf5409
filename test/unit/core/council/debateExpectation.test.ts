import * as assert from 'node:assert/strict';
import { estimateDebate, expectDebate } from '../../../../src/core/council/debatePlan';

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
});
