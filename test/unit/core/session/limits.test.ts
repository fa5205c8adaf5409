import { strict as assert } from 'node:assert';
import {
  canStartClarificationRound,
  clarificationRoundLimit,
  cycleLimit,
  cycleReachesLimit,
  cycleWithinLimit,
  enoughDebaters,
  extensionAllowed,
  roundWithinLimit,
  SessionLimits,
} from '../../../../src/core/session/limits';

describe('session limits', () => {
  it('defaults to 3 rounds, 10 cycles and an admin maximum of 10', () => {
    assert.deepStrictEqual(SessionLimits.parse({}), {
      maxClarificationRounds: 3,
      debateCycleLimit: 10,
      adminMaxDebateCycles: 10,
    });
  });

  it('never allows more than 3 rounds, or an admin maximum below the cycle limit', () => {
    assert.equal(SessionLimits.safeParse({ maxClarificationRounds: 4 }).success, false);
    assert.equal(SessionLimits.safeParse({ maxClarificationRounds: 0 }).success, false);
    assert.equal(SessionLimits.safeParse({ debateCycleLimit: 12 }).success, false);
    assert.equal(SessionLimits.safeParse({ debateCycleLimit: 12, adminMaxDebateCycles: 12 }).success, true);
  });

  it('counts clarification rounds against the configured limit', () => {
    const limits = SessionLimits.parse({ maxClarificationRounds: 2 });
    assert.equal(clarificationRoundLimit(limits), 2);
    assert.deepStrictEqual(
      [0, 1, 2].map(rounds => canStartClarificationRound(rounds, limits)),
      [true, true, false],
    );
    assert.deepStrictEqual(
      [0, 1, 2, 3].map(round => roundWithinLimit(round, limits)),
      [false, true, true, false],
    );
  });

  it('uses the admin maximum only once an extended debate was requested', () => {
    const limits = SessionLimits.parse({ debateCycleLimit: 2, adminMaxDebateCycles: 4 });
    assert.equal(cycleLimit(limits, false), 2);
    assert.equal(cycleLimit(limits, true), 4);
    assert.deepStrictEqual(
      [1, 2, 3].map(cycle => cycleWithinLimit(cycle, limits, false)),
      [true, true, false],
    );
    assert.equal(cycleWithinLimit(4, limits, true), true);
    assert.deepStrictEqual(
      [1, 2].map(cycle => cycleReachesLimit(cycle, limits, false)),
      [false, true],
    );
    assert.equal(cycleReachesLimit(2, limits, true), false);
  });

  it('allows an extension only after the limit stopped the debate, and only up to the admin maximum', () => {
    const limits = SessionLimits.parse({ debateCycleLimit: 2, adminMaxDebateCycles: 4 });
    assert.equal(extensionAllowed(limits, false, true), true);
    assert.equal(extensionAllowed(limits, false, false), false);
    assert.equal(extensionAllowed(limits, true, true), false);
    assert.equal(extensionAllowed(SessionLimits.parse({}), false, true), false);
  });

  it('a debate needs two personas unless the council has only one', () => {
    assert.equal(enoughDebaters(1, 1), true);
    assert.equal(enoughDebaters(1, 3), false);
    assert.equal(enoughDebaters(2, 3), true);
  });
});
