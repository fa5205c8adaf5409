import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DemoModel } from '../../src/cli/demo/demoModel';
import { neverCancelled, type ChatMessage, type ModelRequest } from '../../src/core/llm/languageModel';

/*
 * An OpenAI-compatible endpoint on 127.0.0.1 that plays the demo council (the scripted demo model behind HTTP) and records the model id each request named, so
 * the built `council` command can be run end to end against a real endpoint: tool calls, usage, and faults on cue (a
 * 429 on the nth request, replies held back so a person has time to press Ctrl+C). JSON mode as a server with it
 * answers: a request with `response_format` gets the bare JSON object; one that takes no tools refuses a request with
 * tools as Ollama does (400 "… does not support tools").
 */

interface OpenAiMessage {
  readonly role: string;
  readonly content?: string | readonly { readonly type: string; readonly text?: string }[] | null;
  readonly tool_calls?: readonly { readonly function: { readonly name: string; readonly arguments: string } }[];
}

interface OpenAiRequest {
  readonly model: string;
  readonly messages: readonly OpenAiMessage[];
  readonly tools?: readonly {
    readonly function: { readonly name: string; readonly description?: string; readonly parameters: unknown };
  }[];
  readonly tool_choice?: unknown;
  readonly response_format?: {
    readonly type: string;
    readonly json_schema?: { readonly name?: string; readonly strict?: boolean; readonly schema?: unknown };
  };
}

/** What one request carried: its tools and its response format. */
export interface RequestShape {
  readonly tools: readonly string[];
  /** `json_schema`, `json_object`, or undefined (none). */
  readonly responseFormat?: string;
  /** The response format's schema name and whether strict decoding was asked. */
  readonly schemaName?: string;
  readonly strict?: boolean;
  /** The text of the request's last message (a repair's request says what was wrong). */
  readonly lastMessage: string;
  /** The usage the endpoint reported for it (undefined: it failed). */
  usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
}

/** A reply the endpoint gives instead of the council's, on the request it is scheduled for; `drop`: the connection is cut. */
export type ScriptedFault =
  { readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> } | 'drop';

function textOf(message: OpenAiMessage): string {
  const content =
    typeof message.content === 'string'
      ? message.content
      : (message.content ?? []).map(part => part.text ?? '').join('\n');
  const calls = (message.tool_calls ?? []).map(call => call.function.arguments);
  return [content, ...calls].filter(text => text !== '').join('\n');
}

/** The OpenAI request as the port's request, so the demo model answers it as it answers the command in-process. */
function portRequest(body: OpenAiRequest): ModelRequest {
  const messages: ChatMessage[] = body.messages.map(message => ({
    role: message.role === 'assistant' ? 'assistant' : 'user',
    content: textOf(message),
  }));
  const tools = (body.tools ?? []).map(tool => ({
    name: tool.function.name,
    description: tool.function.description ?? '',
    inputSchema: tool.function.parameters as Record<string, unknown>,
  }));
  return {
    messages,
    ...(tools.length > 0 ? { tools, toolMode: body.tool_choice === 'required' ? 'required' : 'auto' } : {}),
  };
}

/** The JSON object in a fenced reply, as a JSON mode sends it. */
function bareJson(text: string): string {
  const fenced = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
  return fenced === undefined ? text : JSON.stringify(JSON.parse(fenced));
}

function usageOf(request: ModelRequest, text: string, toolCalls: readonly object[]) {
  const prompt = Math.ceil(
    request.messages.map(m => (typeof m.content === 'string' ? m.content : '')).join('').length / 4,
  );
  const completion = Math.ceil((text.length + JSON.stringify(toolCalls).length) / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export class DemoCouncilEndpoint {
  /** The tool (or "text") each request asked for, in order. */
  readonly received: string[] = [];
  /** The model id each request named, in order (which seat's model a request went to). */
  readonly models: string[] = [];
  /** What each request carried, in order. */
  readonly shapes: RequestShape[] = [];
  /** True: the model takes no tools, and a request with tools gets a 400 saying so. */
  takesNoTools = false;
  /** Milliseconds every council reply is held back (0: at once). */
  delayMs = 0;
  private readonly server: Server;
  private readonly faults = new Map<number, ScriptedFault>();
  private readonly model = new DemoModel();

  constructor() {
    this.server = createServer((request, response) => void this.answer(request, response));
  }

  async start(): Promise<string> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise(resolve => this.server.close(() => resolve()));
  }

  /** The `nth` request from now (1: the next) gets `fault` instead of the council's reply. */
  failRequest(nth: number, fault: ScriptedFault): void {
    this.faults.set(this.received.length + nth, fault);
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OpenAiRequest;
    const port = portRequest(body);
    this.received.push(port.toolMode === 'required' ? (port.tools?.[0]?.name ?? 'text') : 'text');
    this.models.push(body.model);
    const last = port.messages.at(-1)?.content;
    const shape: RequestShape = {
      tools: port.tools?.map(tool => tool.name) ?? [],
      lastMessage: typeof last === 'string' ? last : '',
      ...(body.response_format
        ? {
            responseFormat: body.response_format.type,
            ...(body.response_format.json_schema?.name ? { schemaName: body.response_format.json_schema.name } : {}),
            ...(body.response_format.json_schema?.strict === undefined
              ? {}
              : { strict: body.response_format.json_schema.strict }),
          }
        : {}),
    };
    this.shapes.push(shape);
    if (this.takesNoTools && shape.tools.length > 0) {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { message: `registry.ollama.ai/library/${body.model}:latest does not support tools` },
        }),
      );
      return;
    }
    const fault = this.faults.get(this.received.length);
    if (fault === 'drop') {
      request.socket.destroy();
      return;
    }
    if (fault) {
      response.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
      response.end(JSON.stringify(fault.body));
      return;
    }
    if (this.delayMs > 0) await new Promise(resolve => setTimeout(resolve, this.delayMs));
    let text = '';
    const toolCalls: object[] = [];
    for await (const part of this.model.sendRequest(port, neverCancelled)) {
      if (part.kind === 'text') text += part.text;
      else
        toolCalls.push({
          id: `call_${toolCalls.length + 1}`,
          type: 'function',
          function: { name: part.name, arguments: JSON.stringify(part.input) },
        });
    }
    if (response.destroyed) return;
    // JSON mode decodes the object itself: no fence, no prose around it.
    if (body.response_format) text = bareJson(text);
    shape.usage = usageOf(port, text, toolCalls);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: `chatcmpl-${this.received.length}`,
        object: 'chat.completion',
        created: 1,
        model: body.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: toolCalls.length > 0 ? null : text,
              ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
          },
        ],
        // About 4 characters a token, so what a seat costs follows what it was sent and said.
        usage: shape.usage,
      }),
    );
  }
}
