import assert from 'node:assert/strict';
import { CancelledError } from '../../../../../src/core/llm/languageModel';
import { promptBudget, renderMessages } from '../../../../../src/core/llm/prompting/render';
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

  it('keeps 1/8 of a small window (at most 1000 tokens) free for the structured-output instruction', () => {
    assert.equal(promptBudget(new ScriptedModel(() => '', { maxInputTokens: 4_000 })), 3_500);
    assert.equal(promptBudget(new ScriptedModel(() => '', { maxInputTokens: 128_000 })), 127_000);
    assert.equal(promptBudget(new ScriptedModel(() => '', { maxInputTokens: 4_000 }), { reservedTokens: 0 }), 4_000);
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
