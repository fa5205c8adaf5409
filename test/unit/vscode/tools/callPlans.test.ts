import * as assert from 'node:assert/strict';
import { CallPlans } from '../../../../src/vscode/tools/callPlans';

describe('a tool call planned once (CallPlans)', () => {
  /** A planner that counts its plans; each plan is a new object, so sharing one is visible. */
  function planner() {
    let made = 0;
    return {
      make: () => Promise.resolve({ n: ++made }),
      made: () => made,
    };
  }

  it('the run takes the very plan its confirmation showed: planned once, so the two cannot disagree', async () => {
    const plans = new CallPlans<{ n: number }>();
    const p = planner();
    const confirmed = await plans.prepare({ question: 'Queue or cron?' }, p.make);
    // VS Code passes the run an input equal to the confirmation's, not necessarily the same object.
    const ran = await plans.take({ question: 'Queue or cron?' }, p.make);
    assert.equal(ran, confirmed);
    assert.equal(p.made(), 1);
  });

  it('a plan is used once: a second run of the same input, or a run never confirmed, plans anew', async () => {
    const plans = new CallPlans<{ n: number }>();
    const p = planner();
    await plans.prepare({ sessionId: 's' }, p.make);
    await plans.take({ sessionId: 's' }, p.make);
    assert.equal((await plans.take({ sessionId: 's' }, p.make)).n, 2);
    assert.equal((await plans.take({ sessionId: 'other' }, p.make)).n, 3);
  });

  it('different inputs keep their own plans, and only the newest few wait', async () => {
    const plans = new CallPlans<{ n: number }>(2);
    const p = planner();
    await plans.prepare({ q: 1 }, p.make);
    await plans.prepare({ q: 2 }, p.make);
    await plans.prepare({ q: 3 }, p.make);
    assert.equal((await plans.take({ q: 2 }, p.make)).n, 2);
    assert.equal((await plans.take({ q: 3 }, p.make)).n, 3);
    assert.equal((await plans.take({ q: 1 }, p.make)).n, 4, 'the oldest was dropped: planned anew');
  });

  it('a plan that failed at confirmation is not kept: the run plans again', async () => {
    const plans = new CallPlans<{ n: number }>();
    const failed = plans.prepare({ q: 1 }, () => Promise.reject(new Error('no personas')));
    await assert.rejects(failed, /no personas/);
    assert.equal((await plans.take({ q: 1 }, () => Promise.resolve({ n: 7 }))).n, 7);
  });
});
