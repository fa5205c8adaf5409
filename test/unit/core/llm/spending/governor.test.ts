import assert from 'node:assert/strict';
import { LanguageModelFailure, neverCancelled } from '../../../../../src/core/llm/languageModel';
import { streamText } from '../../../../../src/core/llm/textReply';
import {
  SpendingGovernor,
  type SpendingLimits,
  type SpendingScope,
} from '../../../../../src/core/llm/spending/governor';
import { SpendingLedger } from '../../../../../src/core/llm/spending/ledger';
import { PriceBook } from '../../../../../src/core/llm/spending/prices';
import { jsonReply, ScriptedModel } from '../../../../support/scriptedModel';
import { requestStructured } from '../../../../../src/core/llm/structuredOutput';
import { ledgerMarkdown } from '../../../../../src/core/llm/spending/spendText';
import { z } from 'zod';
import { debateLimitNote } from '../../../../../src/core/council/wording/limitNotes';

const SCOPE: SpendingScope = {
  subject: 'This session',
  limits: { credits: 'sessionCredits', requests: 'sessionRequests' },
  work: 'session',
};
// $3 / $15 per million tokens: 4 characters a token in the scripted model.
const PRICES = new PriceBook({ scripted: { input: 3, output: 15 } });
const ask = [{ role: 'user' as const, content: 'x'.repeat(4_000) }]; // 1,000 tokens

function governor(limits: SpendingLimits, prices = PRICES) {
  return SpendingGovernor.create({ limits, scope: SCOPE, prices, ledger: new SpendingLedger(), step: () => 'cycle 1' });
}

describe('SpendingGovernor', () => {
  it('counts input tokens, output tokens and credits of each request and records them in the ledger', async () => {
    const spend = governor({});
    const model = spend.model(new ScriptedModel(() => 'y'.repeat(400)), 'Architect');
    await streamText(model, ask, neverCancelled);
    assert.deepEqual(spend.spent, {
      requests: 1,
      inputTokens: 1_000,
      outputTokens: 100,
      credits: (1_000 * 3 + 100 * 15) / 10_000,
      unpricedTokens: 0,
    });
    assert.deepEqual(spend.ledger.entries, [
      {
        who: 'Architect',
        step: 'cycle 1',
        model: 'Scripted model',
        requests: 1,
        inputTokens: 1_000,
        outputTokens: 100,
        credits: 0.45,
      },
    ]);
  });

  it('counts the tool definitions a request carries as input', async () => {
    const spend = governor({});
    const tool = { name: 'answer', description: 'd'.repeat(396), inputSchema: {} };
    const model = spend.model(new ScriptedModel(() => ({ kind: 'toolCall', name: 'answer', input: {} })), 'A');
    for await (const _ of model.sendRequest({ messages: ask, tools: [tool], toolMode: 'required' }, neverCancelled));
    assert.ok(spend.spent.inputTokens > 1_100, `tool schema counted: ${spend.spent.inputTokens}`);
  });

  it("counts a JSON-mode request's response format schema as input", async () => {
    const spend = governor({});
    const schema = { type: 'object', description: 'd'.repeat(396) };
    const model = spend.model(new ScriptedModel(() => '{}'), 'A');
    const responseFormat = { name: 'answer', description: 'd', schema };
    for await (const _ of model.sendRequest({ messages: ask, responseFormat }, neverCancelled));
    assert.ok(spend.spent.inputTokens > 1_100, `response format schema counted: ${spend.spent.inputTokens}`);
  });

  it('tokenizes each request once, repairs included, and charges every attempt to the ledger', async () => {
    const spend = governor({});
    const counted: string[] = [];
    const scripted = new ScriptedModel((_request, i) => (i === 0 ? 'not json' : jsonReply({ converged: true })));
    const countTokens = scripted.countTokens.bind(scripted);
    scripted.countTokens = text => (counted.push(text), countTokens(text));
    const schema = z.object({ converged: z.boolean() });
    const value = await requestStructured(
      spend.model(scripted, 'Architect'),
      { schema, name: 'verdict', description: 'd', messages: ask },
      neverCancelled,
    );
    assert.deepEqual(value, { converged: true });
    assert.equal(spend.spent.requests, 2, 'the repair is billed like the first attempt');
    // Per request: its messages and its tool schema once (the input), and the reply once (the output).
    const inputTexts = scripted.requests.map(request => request.messages.length + 1);
    assert.equal(
      counted.length,
      inputTexts.reduce((sum, n) => sum + n + 1, 0),
      counted.join('\n---\n'),
    );
    assert.equal(counted.filter(text => text === ask[0]?.content).length, 2, 'the question tokenized once per request');
  });

  it('records a request whose tool schema the provider refused, and the ledger table says what Council did then', async () => {
    const spend = governor({});
    const refusing = new ScriptedModel(request =>
      request.tools?.length
        ? { kind: 'error', error: new Error('Invalid JSON payload received. Unknown name "const"') }
        : jsonReply({ converged: true }),
    );
    const value = await requestStructured(
      spend.model(refusing, 'Architect'),
      { schema: z.object({ converged: z.boolean() }), name: 'verdict', description: 'd', messages: ask },
      neverCancelled,
    );
    assert.deepEqual(value, { converged: true });
    assert.equal(spend.spent.requests, 2, 'the refused request is billed too');
    assert.equal(spend.ledger.entries[0]?.failed, 1);
    assert.equal(spend.ledger.entries[0]?.schemaRefused, 1);
    assert.match(
      ledgerMarkdown(spend.ledger.entries),
      /\| 2 \(1 failed; 1 refused the tool schema, so Council asked for JSON in the reply instead\) \|/,
    );
  });

  it('refuses a request past the request backstop before anything is sent, naming the setting', async () => {
    const scripted = new ScriptedModel(() => 'ok');
    const spend = governor({ maxRequests: 1 });
    const model = spend.model(scripted, 'A');
    await streamText(model, ask, neverCancelled);
    await assert.rejects(streamText(model, ask, neverCancelled), (e: unknown) => {
      assert.ok(e instanceof LanguageModelFailure && e.kind === 'budgetSpent');
      assert.match(e.message, /has used 1 of its 1 model requests.*council\.budget\.maxRequests.*Try again/);
      return true;
    });
    assert.equal(scripted.callCount, 1);
  });

  it('adds the forecast it was given to each refusal: the limit decides, the user also reads the expected figure', async () => {
    const note = debateLimitNote(
      { requests: 7, tokens: 15_000, credits: 3.1 },
      { requests: 11, tokens: 35_000, credits: 8 },
    );
    const byRequests = governor({ maxRequests: 0 });
    byRequests.setForecast(note);
    await assert.rejects(streamText(byRequests.model(new ScriptedModel(() => 'ok'), 'A'), ask, neverCancelled), e => {
      assert.ok(e instanceof LanguageModelFailure);
      assert.match(
        e.message,
        /has used 0 of its 0 model requests\. The debate's forecast: about 7 more requests and 15k tokens \(≈ 3\.1 credits\); at most 11 more requests and 35k tokens \(≈ 8\.0 credits\)\. Raise `council\.budget\.maxRequests`/,
      );
      return true;
    });
    const byCredits = governor({ maxCredits: 1 });
    byCredits.setForecast(note);
    assert.ok(
      byCredits.creditShortfall(2, 3, 'the drafts').message.includes(` Nothing was spent on it. ${note} Raise`),
    );
    byCredits.setForecast(undefined);
    assert.ok(!byCredits.creditShortfall(2, 3, 'the drafts').message.includes('forecast'));
  });

  it('refuses a request whose input and output reserve would pass the credit limit', async () => {
    const scripted = new ScriptedModel(() => 'ok');
    // 1,000 tokens in ($0.003) + 1,000 reserved out ($0.015) = 1.8 credits.
    const spend = governor({ maxCredits: 1.7 });
    await assert.rejects(streamText(spend.model(scripted, 'A'), ask, neverCancelled), /about 1\.8 more.*maxCredits/);
    assert.equal(scripted.callCount, 0);
    assert.equal(spend.spent.requests, 0);
  });

  it('cuts a reply that streams past the credit limit and still charges what was streamed', async () => {
    const long = Array.from({ length: 50 }, () => ({ kind: 'text' as const, text: 'z'.repeat(400) }));
    const spend = governor({ maxCredits: 2 });
    const model = spend.model(new ScriptedModel(() => ({ kind: 'parts', parts: long })), 'A');
    await assert.rejects(streamText(model, ask, neverCancelled), /cut off at the limit/);
    assert.equal(spend.spent.requests, 1);
    assert.ok(spend.spent.credits <= 2, `never past the limit: ${spend.spent.credits}`);
    assert.equal(spend.ledger.entries[0]?.failed, 1);
  });

  it('never exceeds a limit with parallel requests: each one in flight holds its reserve', async () => {
    for (const maxCredits of [0.5, 2, 3.7, 9, 40]) {
      const spend = governor({ maxCredits });
      const model = spend.model(new ScriptedModel(() => 'y'.repeat(2_000), { latencyMs: 5 }), 'A');
      await Promise.allSettled(Array.from({ length: 8 }, () => streamText(model, ask, neverCancelled)));
      assert.ok(spend.spent.credits <= maxCredits, `${spend.spent.credits} <= ${maxCredits}`);
    }
  });

  it('a free model is counted in tokens, never stopped by credits; an unknown price is tokens only', async () => {
    const free = governor({ maxCredits: 0.01 }, new PriceBook({ scripted: 0 }));
    await streamText(free.model(new ScriptedModel(() => 'ok'), 'A'), ask, neverCancelled);
    assert.equal(free.spent.credits, 0);
    const unknown = governor({ maxCredits: 0.01 }, new PriceBook());
    await streamText(unknown.model(new ScriptedModel(() => 'ok'), 'A'), ask, neverCancelled);
    assert.equal(unknown.spent.unpricedTokens, 1_001);
    assert.equal(unknown.ledger.entries[0]?.credits, undefined);
  });

  it('a child scope has its own caps and spends from its parent too; the ledger records each request once', async () => {
    const run = governor({ maxRequests: 10 });
    const script = run.child({ maxRequests: 2 }, { ...SCOPE, subject: 'This script', limits: {} });
    const model = script.model(new ScriptedModel(() => 'ok'), 'script');
    await streamText(model, ask, neverCancelled);
    await streamText(model, ask, neverCancelled);
    await assert.rejects(streamText(model, ask, neverCancelled), /This script has used 2 of its 2 model requests/);
    assert.equal(run.spent.requests, 2);
    assert.equal(run.ledger.totals().requests, 2);
    assert.equal(run.affordableRequests(), 8);
    assert.equal(script.affordableRequests(), 0);
  });

  it('affordableRequests converts the credits left into requests at the mean cost so far', async () => {
    const spend = governor({ maxCredits: 10, maxRequests: 100 });
    await streamText(spend.model(new ScriptedModel(() => 'y'.repeat(400)), 'A'), ask, neverCancelled);
    // 0.45 credits spent; 9.55 left at 0.45 each.
    assert.equal(spend.affordableRequests(), 21);
    assert.equal(spend.affordableRequests(1), 9);
  });
});
