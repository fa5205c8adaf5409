import * as vscode from 'vscode';
import { describeModelFailure } from '../../../src/core/llm/failureMessages';
import {
  CancelledError,
  LanguageModelFailure,
  neverCancelled,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
} from '../../../src/core/llm/languageModel';
import { adaptLanguageModel } from '../../../src/vscode/languageModel/languageModelAdapter';
import * as assert from '../assert';
import { PLAIN_MODEL_ID, SCRIPTED_VENDOR, TOOL_MODEL_ID } from '../fixture/src/api';
import { fixture } from '../harness';

async function scriptedModel(id: string): Promise<LanguageModel> {
  const [model] = await vscode.lm.selectChatModels({ vendor: SCRIPTED_VENDOR, id });
  assert.ok(model, `scripted model ${id} should be selectable`);
  return adaptLanguageModel(model);
}

async function drain(model: LanguageModel, request: ModelRequest, token = neverCancelled): Promise<ResponsePart[]> {
  const parts: ResponsePart[] = [];
  for await (const part of model.sendRequest(request, token)) parts.push(part);
  return parts;
}

const question: ModelRequest = { messages: [{ role: 'user', content: 'question' }] };

async function failureFor(request: ModelRequest = question): Promise<LanguageModelFailure> {
  const model = await scriptedModel(TOOL_MODEL_ID);
  const error = await assert.rejects(drain(model, request), LanguageModelFailure);
  return error as LanguageModelFailure;
}

describe('languageModelAdapter over a real vscode.LanguageModelChat', () => {
  it('reports the model identity, prompt budget and tool-calling support', async () => {
    const tools = await scriptedModel(TOOL_MODEL_ID);
    const plain = await scriptedModel(PLAIN_MODEL_ID);
    assert.deepEqual(
      [tools.id, tools.vendor, tools.family, tools.maxInputTokens, tools.supportsToolCalling],
      [TOOL_MODEL_ID, SCRIPTED_VENDOR, 'council-test', 64_000, true],
    );
    assert.deepEqual([plain.maxInputTokens, plain.supportsToolCalling], [16_000, false]);
  });

  it('streams text and tool calls in the order the model sends them', async () => {
    (await fixture()).setScript([
      {
        parts: [
          { text: 'Thinking. ' },
          { text: 'Done.' },
          { toolCall: { name: 'answer', input: { value: 1 }, callId: 'c1' } },
        ],
      },
    ]);
    const parts = await drain(await scriptedModel(TOOL_MODEL_ID), question);
    assert.deepEqual(parts, [
      { kind: 'text', text: 'Thinking. ' },
      { kind: 'text', text: 'Done.' },
      { kind: 'toolCall', callId: 'c1', name: 'answer', input: { value: 1 } },
    ]);
  });

  it('sends tools in required mode and earlier tool calls with their results', async () => {
    const scripted = await fixture();
    const inputSchema = { type: 'object', properties: { value: { type: 'number' } } };
    await drain(await scriptedModel(TOOL_MODEL_ID), {
      messages: [
        { role: 'user', content: 'Give the value.' },
        { role: 'assistant', content: [{ kind: 'toolCall', callId: 'c0', name: 'answer', input: { value: 'x' } }] },
        {
          role: 'user',
          content: [
            { kind: 'toolResult', callId: 'c0', content: 'value must be a number' },
            { kind: 'text', text: ' Retry.' },
          ],
        },
      ],
      tools: [{ name: 'answer', description: 'Report the value', inputSchema }],
      toolMode: 'required',
    });
    const [sent] = scripted.requests();
    assert.ok(sent);
    assert.deepEqual(sent.messages, [
      { role: 'user', text: 'Give the value.' },
      { role: 'assistant', text: '[tool call answer#c0: {"value":"x"}]' },
      { role: 'user', text: '[tool result c0: value must be a number] Retry.' },
    ]);
    assert.deepEqual(sent.tools, [{ name: 'answer', description: 'Report the value', inputSchema }]);
    assert.equal(sent.toolMode, 'required');
  });

  it('leaves tool mode on auto when the request does not require a tool', async () => {
    const scripted = await fixture();
    await drain(await scriptedModel(TOOL_MODEL_ID), question);
    assert.equal(scripted.requests()[0]?.toolMode, 'auto');
  });

  for (const [code, kind] of [
    ['Blocked', 'blocked'],
    ['NoPermissions', 'noPermissions'],
    ['NotFound', 'notFound'],
  ] as const) {
    it(`maps LanguageModelError ${code} to the "${kind}" failure`, async () => {
      (await fixture()).setScript([{ fail: code }]);
      const failure = await failureFor();
      assert.equal(failure.kind, kind);
      assert.match(describeModelFailure(failure), /Try again/);
    });
  }

  it('recognises an off-topic refusal reported as free text', async () => {
    (await fixture()).setScript([{ fail: 'Unknown', message: 'Response got filtered: off_topic' }]);
    assert.equal((await failureFor()).kind, 'offTopic');
  });

  it("tells Copilot's quota, rate-limit and token-limit failures apart, with the wait when the provider gives one", async () => {
    const cases = [
      [
        { fail: 'ChatQuotaExceeded', message: 'You have exceeded your premium request allowance.' },
        'quotaExceeded',
        undefined,
      ],
      [
        {
          fail: 'ChatRateLimited',
          message: 'Sorry, you have been rate-limited. Please wait 20 seconds before trying again.',
        },
        'rateLimited',
        20,
      ],
      [
        {
          fail: 'Blocked',
          message: 'Request was temporarily blocked due to making too many requests. Retry after 30 seconds.',
        },
        'rateLimited',
        30,
      ],
      [{ fail: 'Unknown', message: 'Message exceeds token limit.' }, 'tooLarge', undefined],
    ] as const;
    for (const [reply, kind, wait] of cases) {
      (await fixture()).setScript([reply]);
      const failure = await failureFor();
      assert.equal(failure.kind, kind, reply.message);
      assert.equal(failure.retryAfterSeconds, wait, reply.message);
    }
  });

  it('reports any other provider error as an unknown failure with its message', async () => {
    (await fixture()).setScript([{ throw: new Error('socket hang up') }]);
    const failure = await failureFor();
    assert.equal(failure.kind, 'unknown');
    assert.match(failure.message, /socket hang up/);
  });

  it('turns the user cancelling mid-stream into CancelledError', async () => {
    (await fixture()).setScript([{ waitForCancellation: true, parts: [{ text: 'partial' }] }]);
    const model = await scriptedModel(TOOL_MODEL_ID);
    const source = new vscode.CancellationTokenSource();
    const received: ResponsePart[] = [];
    const consumed = (async () => {
      for await (const part of model.sendRequest(question, source.token)) {
        received.push(part);
        source.cancel();
      }
    })();
    await assert.rejects(consumed, CancelledError);
    assert.deepEqual(received, [{ kind: 'text', text: 'partial' }]);
  });

  it('does not call the model when already cancelled', async () => {
    const scripted = await fixture();
    const source = new vscode.CancellationTokenSource();
    source.cancel();
    await assert.rejects(drain(await scriptedModel(TOOL_MODEL_ID), question, source.token), CancelledError);
    assert.equal(scripted.requests().length, 0);
  });

  it("counts tokens with the model's tokenizer", async () => {
    const model = await scriptedModel(TOOL_MODEL_ID);
    assert.equal(await model.countTokens('twelve chars'), 3);
  });
});
