import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage, MessagePart, ModelRequest } from '../../src/core/llm/languageModel';
import { neverCancelled } from '../../src/core/llm/languageModel';
import type { ScriptedModel } from './scriptedModel';

/*
 * An OpenAI-compatible chat-completions endpoint on 127.0.0.1 that answers with a scripted model: each request is
 * turned back into the port's ModelRequest (messages, tool calls and results, tools, tool choice), the scripted model
 * replies, and its parts go out as one completion with usage. For tests that run the built `council` command against
 * a real HTTP endpoint.
 */

interface OpenAiMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content?: string | readonly { readonly type: string; readonly text?: string }[] | null;
  readonly tool_calls?: readonly {
    readonly id: string;
    readonly function: { readonly name: string; readonly arguments: string };
  }[];
  readonly tool_call_id?: string;
}

interface OpenAiRequest {
  readonly messages: readonly OpenAiMessage[];
  readonly tools?: readonly {
    readonly function: { readonly name: string; readonly description?: string; readonly parameters: object };
  }[];
  readonly tool_choice?: unknown;
}

function contentText(content: OpenAiMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map(part => part.text ?? '').join('');
}

function toModelRequest(body: OpenAiRequest): ModelRequest {
  const messages: ChatMessage[] = body.messages.map(message => {
    if (message.role === 'tool')
      return {
        role: 'user',
        content: [{ kind: 'toolResult', callId: message.tool_call_id ?? '', content: contentText(message.content) }],
      };
    if (message.role === 'assistant' && message.tool_calls?.length) {
      const parts: MessagePart[] = message.tool_calls.map(call => ({
        kind: 'toolCall',
        callId: call.id,
        name: call.function.name,
        input: JSON.parse(call.function.arguments) as unknown,
      }));
      const said = contentText(message.content);
      return { role: 'assistant', content: said ? [{ kind: 'text', text: said }, ...parts] : parts };
    }
    return { role: message.role === 'assistant' ? 'assistant' : 'user', content: contentText(message.content) };
  });
  const tools = (body.tools ?? []).map(tool => ({
    name: tool.function.name,
    description: tool.function.description ?? '',
    inputSchema: tool.function.parameters,
  }));
  return {
    messages,
    ...(tools.length ? { tools, toolMode: body.tool_choice === 'required' ? 'required' : 'auto' } : {}),
  };
}

export interface ScriptedEndpoint {
  /** The base URL to give as OPENAI_BASE_URL. */
  readonly baseUrl: string;
  /** Requests answered. */
  requests(): number;
  close(): Promise<void>;
}

/** Serves `model` as an OpenAI-compatible endpoint until closed. */
export async function serveScriptedModel(model: ScriptedModel): Promise<ScriptedEndpoint> {
  let answered = 0;
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', chunk => (raw += String(chunk)));
    request.on('end', () => {
      void (async () => {
        try {
          const modelRequest = toModelRequest(JSON.parse(raw) as OpenAiRequest);
          let content = '';
          const calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
          for await (const part of model.sendRequest(modelRequest, neverCancelled)) {
            if (part.kind === 'text') content += part.text;
            else
              calls.push({
                id: part.callId,
                type: 'function',
                function: { name: part.name, arguments: JSON.stringify(part.input) },
              });
          }
          answered += 1;
          const promptTokens = Math.ceil(raw.length / 4);
          const completionTokens = Math.ceil((content.length + JSON.stringify(calls).length) / 4);
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({
              id: `scripted-${answered}`,
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model: 'scripted',
              choices: [
                {
                  index: 0,
                  message: {
                    role: 'assistant',
                    content: content || null,
                    ...(calls.length ? { tool_calls: calls } : {}),
                  },
                  finish_reason: calls.length ? 'tool_calls' : 'stop',
                },
              ],
              usage: {
                prompt_tokens: promptTokens,
                completion_tokens: completionTokens,
                total_tokens: promptTokens + completionTokens,
              },
            }),
          );
        } catch (error) {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error) } }));
        }
      })();
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => answered,
    close: () => new Promise<void>(resolve => server.close(() => resolve())),
  };
}
