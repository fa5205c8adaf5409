import * as assert from 'node:assert/strict';
import { workDoesNotFit } from '../../../../../src/core/llm/spending/forecastCost';
import { PriceBook } from '../../../../../src/core/llm/spending/prices';
import {
  DEEP_WORK_TOKENS_PER_REQUEST,
  DEEP_WORK_USUAL_TOKENS_PER_REQUEST,
  forecastWorkflow,
} from '../../../../../src/core/deepWork/workflowForecast';
import { builtInWorkflow } from '../../../../support/builtInWorkflow';

describe('a /plan stage the run limit cannot pay for is not started', () => {
  // Issue 31: `council.pricing.models` puts the chat model at $30 / $150 per million tokens; runMaxCredits is 40.
  const price = new PriceBook({ 'vendor/dear-model': { input: 30, output: 150 } }).priceOf({
    id: 'dear-model',
    family: 'dear-model',
    vendor: 'vendor',
  });
  const next = forecastWorkflow(builtInWorkflow('plan'))[0]!;
  const limit = { raise: 'raise `council.budget.runMaxCredits` in the settings', goOn: 'run it again' };

  it('says before spending anything what the next stage needs at least, the limit, and what to change', () => {
    assert.ok(price !== undefined && price !== 0);
    const refusal = workDoesNotFit(
      {
        what: `the ${next.phase} stage`,
        fewestRequests: next.requests.fewest,
        expected: { requests: next.expected, each: DEEP_WORK_USUAL_TOKENS_PER_REQUEST },
      },
      DEEP_WORK_TOKENS_PER_REQUEST,
      price,
      { ...limit, maxCredits: 40, spentCredits: 0 },
    );
    assert.match(
      refusal ?? '',
      /^The discovery stage needs about \d+ AI credits at least \(3 requests of ≈7\.0k tokens at this model's price; it probably costs about \d+ AI credits, for about 10 requests of ≈1\.8k tokens\); this run's limit is 40 AI credits\. Nothing was spent on it\. Raise `council\.budget\.runMaxCredits` in the settings or pick a cheaper model, then run it again\.$/,
    );
    console.log(`      runMaxCredits 40: ${refusal}`);
  });

  it('lets a stage start that fits, and says nothing without a credit limit or a price', () => {
    const work = { what: 'the discovery stage', fewestRequests: 2 };
    assert.equal(
      workDoesNotFit(work, DEEP_WORK_TOKENS_PER_REQUEST, price, { ...limit, maxCredits: 1000, spentCredits: 0 }),
      undefined,
    );
    assert.equal(workDoesNotFit(work, DEEP_WORK_TOKENS_PER_REQUEST, price, { ...limit, spentCredits: 0 }), undefined);
    assert.equal(
      workDoesNotFit(work, DEEP_WORK_TOKENS_PER_REQUEST, undefined, { ...limit, maxCredits: 1, spentCredits: 0 }),
      undefined,
    );
    assert.match(
      workDoesNotFit(work, DEEP_WORK_TOKENS_PER_REQUEST, price, { ...limit, maxCredits: 100, spentCredits: 80 }) ?? '',
      /limit is 100 AI credits, about 20 of them left/,
    );
  });
});
