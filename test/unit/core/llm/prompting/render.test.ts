import assert from 'node:assert/strict';
import { z } from 'zod';
import { CancelledError, LanguageModelFailure, neverCancelled } from '../../../../../src/core/llm/languageModel';
import { promptBudget, renderMessages, type RenderOptions } from '../../../../../src/core/llm/prompting/render';
import { SpendingGovernor } from '../../../../../src/core/llm/spending/governor';
import { SpendingLedger } from '../../../../../src/core/llm/spending/ledger';
import { PriceBook } from '../../../../../src/core/llm/spending/prices';
import { requestStructured } from '../../../../../src/core/llm/structuredOutput';
import { cancellationSource, ScriptedModel } from '../../../../support/scriptedModel';
import { Chunks } from './chunksPrompt';

describe('renderMessages', () => {
  it('renders user and assistant messages as port messages', async () => {
    const model = new ScriptedModel(() => '', { maxInputTokens: 10_000 });
    const { messages, tokenCount } = await renderMessages(Chunks, { chunks: 2 }, model);
    assert.deepEqual(
      messages.map(m => m.role),
      ['user', 'assistant'],
    );
    assert.equal(
      messages[0]?.content,
      '0'.padEnd(400, '.') + '\n' + '1'.padEnd(400, '.'),
      'chunks are joined by newlines',
    );
    assert.equal(messages[1]?.content, 'Understood.');
    assert.equal(
      tokenCount,
      Math.ceil(801 / 4) + 3 + Math.ceil(11 / 4) + 3,
      'tokens as counted by the model, plus per-message overhead',
    );
  });

  it('keeps 1/8 of a small window (at most 1000 tokens) free for the structured-output instruction', async () => {
    assert.equal(await promptBudget(new ScriptedModel(() => '', { maxInputTokens: 4_000 })), 3_500);
    assert.equal(await promptBudget(new ScriptedModel(() => '', { maxInputTokens: 128_000 })), 127_000);
    assert.equal(
      await promptBudget(new ScriptedModel(() => '', { maxInputTokens: 4_000 }), { reservedTokens: 0 }),
      4_000,
    );
  });

  it('with the reply it is sent with, the prompt leaves room for that reply’s schema: the whole request fits', async () => {
    // A schema of some size, like a council step's (its JSON Schema is ~1,000 characters).
    const reply = {
      name: 'contribute',
      description: 'One contribution to the debate.',
      schema: z.object({
        position: z.string().describe('Your position in one or two sentences, stated so a colleague can agree or not.'),
        reasons: z.array(z.string().describe('One reason, with the fact it rests on.')).min(1).max(5),
        concerns: z.array(z.string().describe('A risk or a condition the answer must meet.')).max(5),
        agreesWith: z.array(z.string()).describe('Names of colleagues whose position you share.'),
        confidence: z.enum(['low', 'medium', 'high']).describe('How sure you are, given what you know.'),
      }),
    };
    const model = new ScriptedModel(
      () => ({
        kind: 'value',
        value: { position: 'p', reasons: ['r'], concerns: [], agreesWith: [], confidence: 'high' },
      }),
      { maxInputTokens: 800 },
    );
    const governed = SpendingGovernor.create({
      limits: {},
      scope: { subject: 'This test', limits: {}, work: 'session' },
      prices: new PriceBook(),
      ledger: new SpendingLedger(),
    }).model(model, 'test');
    const send = async (options: RenderOptions) => {
      const { messages } = await renderMessages(Chunks, { chunks: 10 }, model, undefined, options);
      return requestStructured(governed, { ...reply, messages }, neverCancelled);
    };
    await assert.rejects(send({}), (e: unknown) => e instanceof LanguageModelFailure && e.kind === 'tooLarge');
    const budget = await promptBudget(model, { reply });
    assert.ok(budget < 700, `a smaller budget than the default reserve leaves (${budget})`);
    assert.equal((await send({ reply })).confidence, 'high');
  });

  it('prunes the lowest-priority chunks to fit the budget left after the reserve', async () => {
    const model = new ScriptedModel(() => '', { maxInputTokens: 800 });
    const { messages, tokenCount } = await renderMessages(Chunks, { chunks: 10 }, model);
    assert.ok(tokenCount <= 700, `tokenCount ${tokenCount}`);
    const kept = (messages[0]?.content as string).split('\n');
    assert.deepEqual(
      kept.map(chunk => chunk[0]),
      ['0', '1', '2', '3', '4', '5'],
      'the six highest-priority chunks fit in 700 tokens',
    );
    assert.ok(
      kept.every(chunk => chunk.length === 400),
      'each chunk whole',
    );
    const all = await renderMessages(Chunks, { chunks: 10 }, model, undefined, { reservedTokens: 0 });
    assert.equal((all.messages[0]?.content as string).split('\n').length, 7, 'without a reserve one more chunk fits');
  });

  it('throws CancelledError for a cancelled token', async () => {
    const cancellation = cancellationSource();
    cancellation.cancel();
    await assert.rejects(
      renderMessages(Chunks, { chunks: 1 }, new ScriptedModel(() => ''), cancellation.token),
      (e: unknown) => e instanceof CancelledError,
    );
  });
});
