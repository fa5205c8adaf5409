import { strict as assert } from 'node:assert';
import {
  DEFAULT_DOLLAR_PRICES,
  DOLLAR_PRICES_TAKEN_ON,
  DollarPriceBook,
} from '../../../../src/cli/prices/dollarPrices';
import { seatCostsText } from '../../../../src/cli/seatCosts';
import { LanguageModelFailure, neverCancelled } from '../../../../src/core/llm/languageModel';
import { SpendingGovernor, type SpendingScope } from '../../../../src/core/llm/spending/governor';
import { SpendingLedger } from '../../../../src/core/llm/spending/ledger';
import { costsInDollars, ledgerMarkdown, showCostsIn, spendSummary } from '../../../../src/core/llm/spending/spendText';
import { forecastText } from '../../../../src/core/llm/spending/forecastText';
import { streamText } from '../../../../src/core/llm/textReply';
import { ScriptedModel } from '../../../support/scriptedModel';

const model = (id: string, vendor: string) => ({ id, family: id, vendor });

describe('council command: dollar prices', () => {
  it('carries the date its list prices were taken on, and prices each family it ships models for', () => {
    assert.match(DOLLAR_PRICES_TAKEN_ON, /^\d{4}-\d{2}-\d{2}$/);
    for (const id of ['gpt-5-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash']) assert.ok(DEFAULT_DOLLAR_PRICES[id], id);
  });

  it("prices a model by id and a dated snapshot of it; the config's entries win; a local model is free", () => {
    const book = new DollarPriceBook({ 'gpt-5-mini': { input: 0.3, output: 2.4 }, qwen3: { input: 0.1, output: 0.1 } });
    assert.deepEqual(book.priceOf(model('claude-sonnet-4-5-20250929', 'anthropic')), { input: 3, output: 15 });
    assert.deepEqual(book.priceOf(model('gpt-5-mini', 'openai')), { input: 0.3, output: 2.4 });
    assert.equal(book.priceOf(model('llama3.1:8b', 'local')), 0);
    assert.deepEqual(book.priceOf(model('qwen3', 'local')), { input: 0.1, output: 0.1 });
    assert.equal(book.priceOf(model('some-hosted-model', 'openai-compatible')), undefined);
  });
});

describe('council command: costs in dollars', () => {
  // The unit is process-wide; every test here puts it back.
  afterEach(() => showCostsIn('credits'));

  const SCOPE: SpendingScope = { subject: 'This session', limits: {}, work: 'session' };

  it("keeps the governor's limit, ledger and refusal in dollars: 1 credit = $0.01", async () => {
    showCostsIn('dollars');
    assert.equal(costsInDollars(), true);
    const ledger = new SpendingLedger();
    // claude-sonnet-4-5: $3 in, $15 out per million; the scripted model counts 4 characters a token.
    const governor = SpendingGovernor.create({
      limits: { maxCredits: 2 },
      scope: SCOPE,
      prices: new DollarPriceBook(),
      ledger,
    });
    const sonnet = new ScriptedModel(() => 'y'.repeat(400), { id: 'claude-sonnet-4-5', family: 'claude-sonnet-4-5' });
    Object.defineProperty(sonnet, 'vendor', { value: 'anthropic' });
    const paid = governor.model(sonnet, 'Security Expert');
    await streamText(paid, [{ role: 'user', content: 'x'.repeat(4_000) }], neverCancelled);
    // 1,000 tokens in, 100 out: $0.003 + $0.0015 = $0.0045 = 0.45 credits.
    assert.ok(Math.abs(governor.spent.credits - 0.45) < 1e-9);
    assert.match(spendSummary(governor.spent), /about \$0\.0045$/);
    assert.match(ledgerMarkdown(ledger.entries), /\| Cost \|\n[\s\S]*\| \$0\.0045 \|$/);
    await assert.rejects(
      streamText(paid, [{ role: 'user', content: 'x'.repeat(4_000) }], neverCancelled),
      (error: unknown) => {
        assert.ok(error instanceof LanguageModelFailure);
        assert.match(
          error.message,
          /has spent about \$0\.0045 of its \$0\.02 \(1 request.*The next request needs about \$0\.02 more/,
        );
        assert.doesNotMatch(error.message, /credit/i);
        return true;
      },
    );
    assert.equal(
      forecastText({ requests: 2, tokens: 22_000, credits: 9 }, { requests: 4, tokens: 44_000, credits: 18 }),
      'about 2 requests and 22k tokens (≈ $0.09); at most 4 requests and 44k tokens (≈ $0.18)',
    );
  });

  it("leaves the extension's wording in AI credits", () => {
    const totals = { requests: 1, inputTokens: 1000, outputTokens: 100, credits: 0.45, unpricedTokens: 0 };
    assert.match(spendSummary(totals), /about 0\.5 AI credits$/);
  });

  it('prints what each seat spent on which model', () => {
    showCostsIn('dollars');
    const text = seatCostsText([
      {
        who: 'Council',
        step: 'opening',
        model: 'qwen3',
        requests: 2,
        inputTokens: 3000,
        outputTokens: 500,
        credits: 0,
      },
      {
        who: 'Security Expert',
        step: 'cycle 1',
        model: 'claude-sonnet-4-5',
        requests: 1,
        inputTokens: 9000,
        outputTokens: 800,
        credits: 3.9,
      },
      {
        who: 'Security Expert',
        step: 'cycle 2',
        model: 'claude-sonnet-4-5',
        requests: 1,
        inputTokens: 11000,
        outputTokens: 700,
        credits: 4.35,
      },
      { who: 'QA Engineer', step: 'cycle 1', model: 'mystery', requests: 1, inputTokens: 9000, outputTokens: 800 },
    ]);
    assert.equal(
      text,
      [
        'Cost by seat:',
        '  Council · qwen3 · 2 requests · 3.5k tokens · $0',
        '  Security Expert · claude-sonnet-4-5 · 2 requests · 22k tokens · $0.08',
        '  QA Engineer · mystery · 1 request · 9.8k tokens · price unknown',
        '',
      ].join('\n'),
    );
    assert.equal(seatCostsText([]), '');
  });
});
