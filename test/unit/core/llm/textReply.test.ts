import assert from 'node:assert/strict';
import { CancelledError, LanguageModelFailure, neverCancelled } from '../../../../src/core/llm/languageModel';
import { streamText } from '../../../../src/core/llm/textReply';
import { cancellationSource, ScriptedModel } from '../../../support/scriptedModel';

describe('streamText', () => {
  const messages = [{ role: 'user' as const, content: 'Say hello.' }];

  it('returns the whole streamed text and reports each chunk as it arrives', async () => {
    const model = new ScriptedModel(() => ({
      kind: 'parts',
      parts: [
        { kind: 'text', text: 'Hel' },
        { kind: 'text', text: 'lo' },
      ],
    }));
    const chunks: string[] = [];
    assert.equal(await streamText(model, messages, neverCancelled, chunk => chunks.push(chunk)), 'Hello');
    assert.deepEqual(chunks, ['Hel', 'lo']);
    assert.equal(model.lastRequest.tools.length, 0);
  });

  it('maps a mid-stream failure to LanguageModelFailure', async () => {
    const model = new ScriptedModel(() => ({
      kind: 'error',
      error: new TypeError('boom'),
      after: [{ kind: 'text', text: 'par' }],
    }));
    await assert.rejects(
      streamText(model, messages, neverCancelled),
      (e: unknown) => e instanceof LanguageModelFailure && e.kind === 'unknown',
    );
    assert.equal(model.callCount, 1);
  });

  it('turns cancellation during the call into CancelledError', async () => {
    const cancellation = cancellationSource();
    const model = new ScriptedModel(() => 'late', { latencyMs: 5_000 });
    const pending = streamText(model, messages, cancellation.token);
    setTimeout(() => cancellation.cancel(), 5);
    await assert.rejects(pending, (e: unknown) => e instanceof CancelledError);
  });

  it('reports a model error raised after cancellation as CancelledError', async () => {
    const cancellation = cancellationSource();
    const model = new ScriptedModel(() => {
      cancellation.cancel();
      return { kind: 'error', error: new Error('Canceled') };
    });
    await assert.rejects(streamText(model, messages, cancellation.token), (e: unknown) => e instanceof CancelledError);
  });
});
