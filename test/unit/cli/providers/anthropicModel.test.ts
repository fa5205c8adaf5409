import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { providerModel } from '../../../../src/cli/providers/providerModels';
import { LanguageModelFailure, neverCancelled } from '../../../../src/core/llm/languageModel';
import { requestStructured } from '../../../../src/core/llm/structuredOutput';

/*
 * The same adapter on Anthropic's Messages API (a scripted server on 127.0.0.1): the structured reply comes back as a
 * tool_use block, usage is summed, and a refused key names the variable the config gave.
 */

interface Received {
  readonly apiKey: string | undefined;
  readonly body: {
    readonly model: string;
    readonly tools?: readonly { readonly name: string; readonly input_schema: unknown }[];
    readonly tool_choice?: unknown;
    readonly output_config?: { readonly format?: { readonly type: string; readonly schema?: unknown } };
  };
}

describe('AI SDK model on Anthropic: the same port over the Messages API', () => {
  const received: Received[] = [];
  let answers: { status: number; body: unknown }[] = [];
  let server: Server;
  let baseUrl: string;

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          apiKey: request.headers['x-api-key'] as string | undefined,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'],
        });
        const answer = answers.shift() ?? { status: 500, body: { type: 'error', error: { message: 'no answer' } } };
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>(resolve => server.close(() => resolve())));

  const model = () =>
    providerModel(
      {
        providerName: 'claude',
        provider: { type: 'anthropic', baseUrl, apiKeyEnv: 'WORK_ANTHROPIC_KEY' },
        modelId: 'claude-sonnet-4-5',
      },
      { WORK_ANTHROPIC_KEY: 'sk-ant-test' },
    );

  it('gets a structured reply through a tool_use block, with the key from the named variable', async () => {
    answers = [
      {
        status: 200,
        body: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'cycle_verdict', input: { converged: true, reason: 'all agree' } },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 120, output_tokens: 30 },
        },
      },
    ];
    const claude = model();
    const verdict = await requestStructured(
      claude,
      {
        schema: z.object({ converged: z.boolean(), reason: z.string() }),
        name: 'cycle_verdict',
        description: 'Whether the debate converged.',
        messages: [{ role: 'user', content: 'Has the council converged?' }],
      },
      neverCancelled,
    );
    assert.deepEqual(verdict, { converged: true, reason: 'all agree' });
    const sent = received.at(-1);
    assert.equal(sent?.apiKey, 'sk-ant-test');
    assert.equal(sent?.body.model, 'claude-sonnet-4-5');
    assert.deepEqual(
      sent?.body.tools?.map(t => t.name),
      ['cycle_verdict'],
    );
    assert.deepEqual(claude.usage, { requests: 1, inputTokens: 120, outputTokens: 30 });
    assert.equal(claude.vendor, 'anthropic');
  });

  it("asks a model configured without tool calling through Anthropic's structured output: the schema, no tools", async () => {
    answers = [
      {
        status: 200,
        body: {
          id: 'msg_2',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: '{"converged":false,"reason":"split"}' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 90, output_tokens: 12 },
        },
      },
    ];
    const claude = providerModel(
      {
        providerName: 'claude',
        provider: { type: 'anthropic', baseUrl, apiKeyEnv: 'WORK_ANTHROPIC_KEY' },
        modelId: 'claude-sonnet-4-5',
        toolCalling: false,
      },
      { WORK_ANTHROPIC_KEY: 'sk-ant-test' },
    );
    const verdict = await requestStructured(
      claude,
      {
        schema: z.object({ converged: z.boolean(), reason: z.string() }),
        name: 'cycle_verdict',
        description: 'Whether the debate converged.',
        messages: [{ role: 'user', content: 'Has the council converged?' }],
      },
      neverCancelled,
    );
    assert.deepEqual(verdict, { converged: false, reason: 'split' });
    const sent = received.at(-1)?.body;
    assert.equal(sent?.tools, undefined);
    assert.equal(sent?.output_config?.format?.type, 'json_schema');
    assert.deepEqual((sent?.output_config?.format?.schema as { required?: unknown }).required, ['converged', 'reason']);
    assert.deepEqual(claude.usage, { requests: 1, inputTokens: 90, outputTokens: 12 });
  });

  it('maps a refused key to noPermissions naming the variable the config gave', async () => {
    answers = [
      { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } },
    ];
    const parts = async () => {
      for await (const part of model().sendRequest({ messages: [{ role: 'user', content: 'hi' }] }, neverCancelled))
        void part;
    };
    await assert.rejects(parts(), (error: unknown) => {
      assert.ok(error instanceof LanguageModelFailure);
      assert.equal(error.kind, 'noPermissions');
      assert.match(error.message, /\(401\).*Check WORK_ANTHROPIC_KEY for provider "claude"/);
      return true;
    });
  });
});
