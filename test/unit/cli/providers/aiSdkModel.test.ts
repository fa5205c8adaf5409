import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { providerModel } from '../../../../src/cli/providers/providerModels';
import {
  LanguageModelFailure,
  neverCancelled,
  type ModelFailureKind,
  type ResponsePart,
} from '../../../../src/core/llm/languageModel';
import { requestStructured } from '../../../../src/core/llm/structuredOutput';

/** What the scripted endpoint answers to one POST /chat/completions. */
interface ScriptedAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

interface ReceivedRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: {
    readonly model: string;
    readonly messages: readonly { readonly role: string }[];
    readonly tools?: readonly { readonly function: { readonly name: string; readonly parameters: unknown } }[];
    readonly tool_choice?: unknown;
    readonly response_format?: {
      readonly type: string;
      readonly json_schema?: { readonly name: string; readonly strict: boolean; readonly schema: unknown };
    };
  };
}

/** An OpenAI-compatible endpoint on 127.0.0.1 that plays `answers` in order and records what it received. */
class ScriptedEndpoint {
  readonly received: ReceivedRequest[] = [];
  private readonly server: Server;
  private answers: ScriptedAnswer[] = [];

  constructor() {
    this.server = createServer((request, response) => void this.answer(request, response));
  }

  async start(): Promise<string> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  stop(): Promise<void> {
    return new Promise(resolve => this.server.close(() => resolve()));
  }

  script(...answers: ScriptedAnswer[]): void {
    this.answers = answers;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    this.received.push({
      path: request.url ?? '',
      authorization: request.headers.authorization,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedRequest['body'],
    });
    const next = this.answers.shift() ?? { status: 500, body: { error: { message: 'nothing scripted' } } };
    response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    response.end(JSON.stringify(next.body));
  }
}

function completion(message: object, finishReason: string, usage = { prompt_tokens: 120, completion_tokens: 30 }) {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

function toolCall(name: string, args: string, id = 'call_1') {
  return { content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] };
}

const Verdict = z.object({ converged: z.boolean(), reason: z.string() });
const messages = [{ role: 'user' as const, content: 'Has the council converged?' }];

async function collect(stream: AsyncIterable<ResponsePart>): Promise<ResponsePart[]> {
  const parts: ResponsePart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function failsWith(kind: ModelFailureKind, pattern: RegExp) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof LanguageModelFailure, `expected a LanguageModelFailure, got ${String(error)}`);
    assert.equal(error.kind, kind);
    assert.match(error.message, pattern);
    return true;
  };
}

describe('AI SDK model: the language-model port, here over an OpenAI-compatible endpoint', () => {
  const endpoint = new ScriptedEndpoint();
  let baseUrl: string;
  const endpointModel = () =>
    providerModel(
      {
        providerName: 'scripted',
        provider: { type: 'openai-compatible', baseUrl, apiKeyEnv: 'OPENAI_API_KEY' },
        modelId: 'test-model',
      },
      { OPENAI_API_KEY: 'sk-test' },
    );

  before(async () => {
    baseUrl = await endpoint.start();
  });
  after(() => endpoint.stop());
  beforeEach(() => endpoint.received.splice(0));

  it('gets a structured reply through a required tool call with the schema the core sends, and sums usage', async () => {
    endpoint.script(completion(toolCall('cycle_verdict', '{"converged":true,"reason":"all agree"}'), 'tool_calls'));
    const model = endpointModel();
    const verdict = await requestStructured(
      model,
      { schema: Verdict, name: 'cycle_verdict', description: 'Whether the debate converged.', messages },
      neverCancelled,
    );
    assert.deepEqual(verdict, { converged: true, reason: 'all agree' });
    const sent = endpoint.received[0];
    assert.equal(sent?.path, '/v1/chat/completions');
    assert.equal(sent?.authorization, 'Bearer sk-test');
    assert.equal(sent?.body.model, 'test-model');
    assert.deepEqual(sent?.body.tool_choice, 'required');
    assert.equal(sent?.body.tools?.[0]?.function.name, 'cycle_verdict');
    assert.deepEqual(
      (sent?.body.tools?.[0]?.function.parameters as { required?: unknown }).required,
      ['converged', 'reason'],
      'the portable schema goes out as it is',
    );
    assert.deepEqual(model.usage, { requests: 1, inputTokens: 120, outputTokens: 30 });
  });

  it('sends an earlier tool call and its result back paired by call id', async () => {
    endpoint.script(completion({ content: 'done' }, 'stop'));
    const model = endpointModel();
    const parts = await collect(
      model.sendRequest(
        {
          messages: [
            { role: 'user', content: 'Start.' },
            { role: 'assistant', content: [{ kind: 'toolCall', callId: 'c7', name: 'pick', input: { a: 1 } }] },
            { role: 'user', content: [{ kind: 'toolResult', callId: 'c7', content: 'wrong shape' }] },
          ],
        },
        neverCancelled,
      ),
    );
    assert.deepEqual(parts, [{ kind: 'text', text: 'done' }]);
    const roles = endpoint.received[0]?.body.messages.map(message => message.role);
    assert.deepEqual(roles, ['user', 'assistant', 'tool']);
    assert.equal((endpoint.received[0]?.body.messages[2] as { tool_call_id?: string }).tool_call_id, 'c7');
  });

  it('maps a 400 refusing the tool schema to the refusal the core asks again without tools', async () => {
    endpoint.script(
      {
        status: 400,
        body: { error: { message: 'Invalid schema for function "cycle_verdict"', type: 'invalid_request_error' } },
      },
      completion({ content: '```json\n{"converged":false,"reason":"split"}\n```' }, 'stop'),
    );
    const model = endpointModel();
    const refusals: string[] = [];
    const verdict = await requestStructured(
      model,
      { schema: Verdict, name: 'cycle_verdict', description: 'd', messages, onToolRefused: m => refusals.push(m) },
      neverCancelled,
    );
    assert.deepEqual(verdict, { converged: false, reason: 'split' });
    assert.equal(refusals.length, 1);
    assert.match(refusals[0] ?? '', /400 Bad Request: Invalid schema for function "cycle_verdict"/);
    assert.equal(endpoint.received[1]?.body.tools, undefined, 'asked again as fenced JSON, without tools');
    // A schema refused as a tool would be refused as a response format too: the JSON is asked for in the prompt only.
    assert.equal(endpoint.received[1]?.body.response_format, undefined);
    assert.equal(model.supportsToolCalling, true, 'one refused schema does not switch the model to JSON mode');
  });

  it('asks a model configured without tool calling through JSON mode: the schema as response_format, usage summed', async () => {
    endpoint.script(completion({ content: '{"converged":true,"reason":"all agree"}' }, 'stop'));
    const model = providerModel(
      {
        providerName: 'scripted',
        provider: { type: 'openai-compatible', baseUrl, apiKeyEnv: 'OPENAI_API_KEY' },
        modelId: 'test-model',
        toolCalling: false,
      },
      { OPENAI_API_KEY: 'sk-test' },
    );
    assert.equal(model.supportsToolCalling, false);
    const verdict = await requestStructured(
      model,
      { schema: Verdict, name: 'cycle_verdict', description: 'Whether the debate converged.', messages },
      neverCancelled,
    );
    assert.deepEqual(verdict, { converged: true, reason: 'all agree' });
    const sent = endpoint.received[0]?.body;
    assert.equal(sent?.tools, undefined);
    assert.equal(sent?.response_format?.type, 'json_schema');
    assert.equal(sent?.response_format?.json_schema?.name, 'cycle_verdict');
    assert.equal(sent?.response_format?.json_schema?.strict, false, 'portable schemas are not strict-mode schemas');
    assert.deepEqual((sent?.response_format?.json_schema?.schema as { required?: unknown }).required, [
      'converged',
      'reason',
    ]);
    assert.deepEqual(model.usage, { requests: 1, inputTokens: 120, outputTokens: 30 });
    // A request that still carries tools is refused here, never sent.
    await assert.rejects(
      collect(
        model.sendRequest({ messages, tools: [{ name: 't', description: 'd', inputSchema: {} }] }, neverCancelled),
      ),
      failsWith('unknown', /not sent.*"toolCalling": false/),
    );
    assert.equal(endpoint.received.length, 1);
  });

  it('after a 400 saying the model takes no tools, reports no tool calling and refuses tools without sending them', async () => {
    endpoint.script(
      {
        status: 400,
        body: { error: { message: 'registry.ollama.ai/library/test-model:latest does not support tools' } },
      },
      completion({ content: '{"converged":false,"reason":"split"}' }, 'stop'),
    );
    const model = endpointModel();
    assert.equal(model.supportsToolCalling, true);
    const verdict = await requestStructured(
      model,
      { schema: Verdict, name: 'cycle_verdict', description: 'd', messages },
      neverCancelled,
    );
    assert.deepEqual(verdict, { converged: false, reason: 'split' });
    assert.equal(model.supportsToolCalling, false);
    assert.equal(endpoint.received[1]?.body.tools, undefined);
    assert.equal(endpoint.received[1]?.body.response_format?.type, 'json_schema');
    await assert.rejects(
      collect(
        model.sendRequest({ messages, tools: [{ name: 't', description: 'd', inputSchema: {} }] }, neverCancelled),
      ),
      failsWith('unknown', /does not support tools/),
    );
    assert.equal(endpoint.received.length, 2, 'the refused request is not sent again');
  });

  it('maps a 429 to rateLimited with the Retry-After header, and an exhausted quota to quotaExceeded', async () => {
    const model = endpointModel();
    endpoint.script({
      status: 429,
      body: { error: { message: 'Rate limit reached' } },
      headers: { 'retry-after': '17' },
    });
    await assert.rejects(collect(model.sendRequest({ messages }, neverCancelled)), (error: unknown) => {
      failsWith('rateLimited', /rate limiting requests \(429\); retry after 17 seconds: Rate limit reached/)(error);
      assert.equal((error as LanguageModelFailure).retryAfterSeconds, 17);
      return true;
    });
    endpoint.script({
      status: 429,
      body: { error: { message: 'You exceeded your current quota', type: 'insufficient_quota' } },
    });
    await assert.rejects(
      collect(model.sendRequest({ messages }, neverCancelled)),
      failsWith('quotaExceeded', /quota is used up \(429\)/),
    );
  });

  it('keeps tool arguments cut at the output limit as text, which the core reports as a cut reply', async () => {
    const cut = completion(toolCall('cycle_verdict', '{"converged":true,"reason":"all ag'), 'length');
    endpoint.script(cut);
    const model = endpointModel();
    const parts = await collect(
      model.sendRequest(
        { messages, tools: [{ name: 'cycle_verdict', description: 'd', inputSchema: {} }] },
        neverCancelled,
      ),
    );
    assert.deepEqual(parts, [
      { kind: 'toolCall', callId: 'call_1', name: 'cycle_verdict', input: '{"converged":true,"reason":"all ag' },
    ]);
    endpoint.script(cut, cut);
    await assert.rejects(
      requestStructured(model, { schema: Verdict, name: 'cycle_verdict', description: 'd', messages }, neverCancelled),
      failsWith('malformedReply', /cut off at its output limit/),
    );
  });

  it('maps a refused key to noPermissions and an unknown model to notFound, naming what to change', async () => {
    const model = endpointModel();
    endpoint.script({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    await assert.rejects(
      collect(model.sendRequest({ messages }, neverCancelled)),
      failsWith(
        'noPermissions',
        /Incorrect API key provided\. Check OPENAI_API_KEY for provider "scripted" and its baseUrl/,
      ),
    );
    endpoint.script({ status: 404, body: { error: { message: 'The model does not exist' } } });
    await assert.rejects(
      collect(model.sendRequest({ messages }, neverCancelled)),
      failsWith('notFound', /no model "test-model".*--model/),
    );
  });
});
