import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DemoModel } from '../../src/cli/demo/demoModel';
import { neverCancelled, type ChatMessage, type ResponsePart } from '../../src/core/llm/languageModel';

/*
 * An OpenAI-compatible chat endpoint on 127.0.0.1 that answers with the demo council (the scripted DemoModel
 * behind real HTTP, tool calls included), and records which model id each request named: a council on it runs
 * end to end through the providers' HTTP clients, whatever model each seat is configured with.
 */

interface ChatBody {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content?: unknown }[];
  readonly tools?: readonly {
    readonly function: { readonly name: string; readonly description?: string; readonly parameters: object };
  }[];
  readonly tool_choice?: unknown;
}

/** The text of an OpenAI message's content (a string or text parts). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map(part => (part as { text?: unknown }).text)
      .filter(t => typeof t === 'string')
      .join('\n');
  return '';
}

export class DemoEndpoint {
  /** The model id of each request, in order. */
  readonly models: string[] = [];
  private readonly server: Server = createServer((request, response) => {
    void this.reply(request).then(
      body => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: String(error) } }));
      },
    );
  });
  private readonly demo = new DemoModel();

  async start(): Promise<string> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  stop(): Promise<void> {
    return new Promise(resolve => this.server.close(() => resolve()));
  }

  private async reply(request: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
    this.models.push(body.model);
    const messages: ChatMessage[] = body.messages.map(m => ({
      role: m.role === 'assistant' ? 'assistant' : 'user',
      content: contentText(m.content),
    }));
    const parts: ResponsePart[] = [];
    for await (const part of this.demo.sendRequest(
      {
        messages,
        ...(body.tools
          ? {
              tools: body.tools.map(t => ({
                name: t.function.name,
                description: t.function.description ?? '',
                inputSchema: t.function.parameters,
              })),
              toolMode: body.tool_choice === 'required' ? ('required' as const) : ('auto' as const),
            }
          : {}),
      },
      neverCancelled,
    ))
      parts.push(part);
    const text = parts.flatMap(p => (p.kind === 'text' ? [p.text] : [])).join('');
    const calls = parts.flatMap(p => (p.kind === 'toolCall' ? [p] : []));
    const promptTokens = Math.ceil(messages.map(m => contentText(m.content)).join('').length / 4);
    return {
      id: `chatcmpl-${this.models.length}`,
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' ? null : text,
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((call, index) => ({
                    id: `call_${index}`,
                    type: 'function',
                    function: { name: call.name, arguments: JSON.stringify(call.input) },
                  })),
                }
              : {}),
          },
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: { prompt_tokens: promptTokens, completion_tokens: Math.ceil(text.length / 4), total_tokens: 0 },
    };
  }
}
