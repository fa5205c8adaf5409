import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import {
  LanguageModelFailure,
  type CancellationSignal,
  type ChatMessage,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
} from '../../core/llm/languageModel';

/*
 * The MCP client's own model through sampling (sampling/createMessage), used only when no provider is configured.
 * MCP sampling is deprecated (2026-07-28 revision, SEP-2577): clients answer with text only and no tools, so the
 * model is declared without tool calling and Council asks it for JSON in text.
 */

/** The one call the server makes to the client. */
export type CreateMessage = (params: CreateMessageRequest['params']) => Promise<CreateMessageResult>;

function messageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map(part =>
      part.kind === 'text'
        ? part.text
        : part.kind === 'toolCall'
          ? `Tool call ${part.name}: ${JSON.stringify(part.input)}`
          : `Tool result: ${part.content}`,
    )
    .join('\n');
}

/** Reply budget asked for; VS Code ignores it, other clients need one. */
const MAX_TOKENS = 4000;

export class SamplingModel implements LanguageModel {
  readonly id = 'mcp-sampling';
  readonly name = "the MCP client's model (sampling)";
  readonly family = 'mcp-sampling';
  readonly vendor = 'mcp-client';
  readonly maxInputTokens = 64_000;
  readonly supportsToolCalling = false;

  constructor(private readonly createMessage: CreateMessage) {}

  countTokens(text: string): Promise<number> {
    return Promise.resolve(Math.ceil(text.length / 4));
  }

  async *sendRequest(request: ModelRequest, token: CancellationSignal): AsyncIterable<ResponsePart> {
    if (token.isCancellationRequested) throw new LanguageModelFailure('cancelled', 'Cancelled.');
    const result = await this.createMessage({
      messages: request.messages.map(m => ({ role: m.role, content: { type: 'text', text: messageText(m) } })),
      maxTokens: MAX_TOKENS,
    });
    const content = result.content;
    const text = Array.isArray(content)
      ? content.flatMap(part => (part.type === 'text' ? [part.text] : [])).join('')
      : content.type === 'text'
        ? content.text
        : '';
    if (!text) throw new LanguageModelFailure('unknown', 'The MCP client answered the sampling request with no text.');
    yield { kind: 'text', text };
  }
}
