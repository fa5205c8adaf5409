import * as assert from 'node:assert/strict';
import { PriceBook } from '../../../../../src/core/llm/spending/prices';
import { runSpent } from '../../../../../src/core/workflow/engine/workflowRunState';
import { pipelineModel } from '../../../../support/pipelineScript';
import { runFixture } from './harness';

/** The fixture's agents on a priced model: $3/$15 per million tokens, like the dearer Copilot models. */
const prices = new PriceBook({ 'test/scripted': { input: 3, output: 15 } });
const spending = (maxRequests: number | undefined, maxCredits?: number) => ({
  limits: {
    ...(maxRequests === undefined ? {} : { maxRequests }),
    ...(maxCredits === undefined ? {} : { maxCredits }),
  },
  prices,
});

describe('/plan under the run budget', function () {
  this.timeout(20_000);

  it('an unlimited run: the ledger holds every request, per stage agent and phase, priced', async () => {
    const model = pipelineModel({}, { family: 'scripted' });
    const { outcome } = await runFixture(model, { spending: spending(undefined) });
    assert.equal(outcome.status, 'completed');
    const spent = runSpent(outcome.state);
    assert.equal(spent.requests, model.callCount);
    assert.ok(spent.credits > 0 && spent.unpricedTokens === 0);
    assert.deepEqual(
      [...new Set(outcome.state.spending?.map(l => `${l.who} @ ${l.step}`))],
      ['discovery-stage @ phase discovery', 'planning-stage @ phase planning', 'ticket-stage @ phase tickets'],
    );
  });

  it('limits from tiny to large: never exceeded; each stop says what to raise; Try again finishes without redoing @slow', async () => {
    const full = pipelineModel({}, { family: 'scripted' });
    await runFixture(full);
    const needed = full.callCount;
    for (const limit of [1, 3, Math.floor(needed / 2), needed - 1, needed]) {
      const model = pipelineModel({}, { family: 'scripted' });
      const first = await runFixture(model, { spending: spending(limit) });
      assert.ok(model.callCount <= limit, `limit ${limit}: sent ${model.callCount}`);
      assert.equal(runSpent(first.outcome.state).requests, model.callCount, `limit ${limit}: every request counted`);
      if (limit >= needed) {
        assert.equal(first.outcome.status, 'completed', `limit ${limit}`);
        continue;
      }
      assert.equal(first.outcome.status, 'failed', `limit ${limit}`);
      assert.match(
        first.outcome.status === 'failed' ? first.outcome.message : '',
        new RegExp(
          `^This /plan run has used ${limit} of its ${limit} model requests\\. .*Raise \`council\\.budget\\.runMaxRequests\` in the settings, then press Try again to continue where it stopped\\.$`,
        ),
      );
      // Try again with the limit raised: the run goes on from its saved state and finishes.
      const completedBefore = first.outcome.state.context.phases.completed;
      const again = await runFixture(model, { resume: first.outcome.state, spending: spending(needed + 10) });
      assert.equal(again.outcome.status, 'completed', `limit ${limit}, resumed`);
      assert.ok(model.callCount <= needed + 10);
      for (const stage of completedBefore)
        assert.equal(again.outcome.state.context.phases.iteration_counts[stage], 1, `${stage} was not run again`);
      assert.equal(runSpent(again.outcome.state).requests, model.callCount, 'both turns in one ledger');
    }
  });

  it('a credit limit stops the run before it spends past it', async () => {
    const model = pipelineModel({}, { family: 'scripted' });
    // Without the check before each stage (a stage whose requests cannot be counted ahead): the governor stops it.
    const uncounted = { each: { input: 0, output: 0 }, smallest: () => undefined };
    const { outcome } = await runFixture(model, {
      spending: { ...spending(undefined, 0.05), phaseFloor: uncounted },
    });
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.status === 'failed' ? outcome.message : '', /of its 0\.05 AI credits.*runMaxCredits/);
    assert.ok(runSpent(outcome.state).credits <= 0.05, `spent ${runSpent(outcome.state).credits}`);
  });

  it('a stage whose fewest requests the credit limit cannot pay for is not started: nothing is spent', async () => {
    const model = pipelineModel({}, { family: 'scripted' });
    const { outcome } = await runFixture(model, { spending: spending(undefined, 0.05) });
    assert.equal(outcome.status, 'failed');
    assert.match(
      outcome.status === 'failed' ? outcome.message : '',
      /^The discovery stage needs about [\d.]+ AI credits at least \(3 requests of ≈7\.0k tokens at this model's price; it probably costs about [\d.]+ AI credits, for about 10 requests of ≈1\.9k tokens\); this run's limit is 0\.05 AI credits\. Nothing was spent on it\. Raise `council\.budget\.runMaxCredits`/,
    );
    assert.equal(model.callCount, 0);
    assert.equal(runSpent(outcome.state).requests, 0);
  });
});
