import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { providerModel } from '../../../../src/cli/providers/providerModels';
import { neverCancelled } from '../../../../src/core/llm/languageModel';
import { requestStructured } from '../../../../src/core/llm/structuredOutput';

/*
 * The adapter on Google's Gemini API (a scripted server on 127.0.0.1), for a model without tool calling: the schema
 * goes as the response schema with the JSON MIME type, no tools; the JSON reply is validated as any other.
 */

interface Received {
  readonly path: string;
  readonly body: {
    readonly tools?: unknown;
    readonly generationConfig?: { readonly responseMimeType?: string; readonly responseSchema?: unknown };
  };
}

describe('AI SDK model on Google: JSON mode for a model without tool calling', () => {
  const received: Received[] = [];
  let server: Server;
  let baseUrl: string;

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          path: request.url ?? '',
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'],
        });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            candidates: [
              {
                content: { role: 'model', parts: [{ text: '{"converged":true,"reason":"all agree"}' }] },
                finishReason: 'STOP',
              },
            ],
            usageMetadata: { promptTokenCount: 70, candidatesTokenCount: 9, totalTokenCount: 79 },
          }),
        );
      });
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1beta`;
  });
  after(() => new Promise<void>(resolve => server.close(() => resolve())));

  it('sends the schema as the response schema with the JSON MIME type, no tools, and sums usage', async () => {
    const gemini = providerModel(
      {
        providerName: 'gemini',
        provider: { type: 'google', baseUrl },
        modelId: 'gemini-2.5-flash',
        toolCalling: false,
      },
      { GOOGLE_GENERATIVE_AI_API_KEY: 'g-test' },
    );
    const verdict = await requestStructured(
      gemini,
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
    assert.match(sent?.path ?? '', /models\/gemini-2\.5-flash:generateContent/);
    assert.equal(sent?.body.tools, undefined);
    assert.equal(sent?.body.generationConfig?.responseMimeType, 'application/json');
    assert.deepEqual((sent?.body.generationConfig?.responseSchema as { required?: unknown }).required, [
      'converged',
      'reason',
    ]);
    assert.deepEqual(gemini.usage, { requests: 1, inputTokens: 70, outputTokens: 9 });
  });
});
