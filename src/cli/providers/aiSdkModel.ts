import type { LanguageModelV3 } from '@ai-sdk/provider';
import { APICallError } from 'ai';
import {
  CancelledError,
  LanguageModelFailure,
  type CancellationSignal,
  type ChatMessage,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
} from '../../core/llm/languageModel';
import { retryAfterSeconds, toModelError } from '../../core/llm/modelErrors';

/*
 * The language-model port over any AI SDK provider model (OpenAI, Anthropic, Google, an OpenAI-compatible
 * endpoint), for hosts without VS Code. Structured replies go through tool calling with the schemas the core
 * sends, unchanged; a provider that refuses a schema gets the core's JSON-in-the-reply repair.
 */

type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type PromptMessage = CallOptions['prompt'][number];

/** What the endpoint reported spending, summed over the model's requests. */
export interface ReportedUsage {
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** One provider model and the words its failures use. */
export interface AiSdkModelSettings {
  readonly chat: LanguageModelV3;
  /** The model id as the provider names it (and as the price table knows it). */
  readonly modelId: string;
  /** `openai`, `anthropic`, `google`, `openai-compatible`: the vendor prices are looked up by. */
  readonly vendor: string;
  /** Prompt budget the core plans with. */
  readonly maxInputTokens: number;
  /** What to check when the key is refused, e.g. "ANTHROPIC_API_KEY". */
  readonly keyHint: string;
}

/** ceil(chars / 4): the endpoint has no tokenizer call, and budgets only need an estimate. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export class AiSdkModel implements LanguageModel {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly vendor: string;
  readonly maxInputTokens: number;
  readonly supportsToolCalling = true;
  private readonly chat: LanguageModelV3;
  private readonly keyHint: string;
  private spent: ReportedUsage = { requests: 0, inputTokens: 0, outputTokens: 0 };

  constructor(settings: AiSdkModelSettings) {
    this.id = settings.modelId;
    this.name = settings.modelId;
    this.family = settings.modelId;
    this.vendor = settings.vendor;
    this.maxInputTokens = settings.maxInputTokens;
    this.chat = settings.chat;
    this.keyHint = settings.keyHint;
  }

  /** Requests and tokens as the endpoint reported them. */
  get usage(): ReportedUsage {
    return this.spent;
  }

  countTokens(text: string): Promise<number> {
    return Promise.resolve(estimateTokens(text));
  }

  async *sendRequest(request: ModelRequest, token: CancellationSignal): AsyncGenerator<ResponsePart> {
    if (token.isCancellationRequested) throw new CancelledError();
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    let result: Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
    try {
      result = await this.chat.doGenerate(toCallOptions(request, abort.signal));
    } catch (error) {
      throw toEndpointFailure(error, token, this.id, this.keyHint);
    } finally {
      subscription.dispose();
    }
    this.spent = {
      requests: this.spent.requests + 1,
      inputTokens: this.spent.inputTokens + (result.usage.inputTokens.total ?? 0),
      outputTokens: this.spent.outputTokens + (result.usage.outputTokens.total ?? 0),
    };
    if (result.finishReason.unified === 'content-filter') {
      throw new LanguageModelFailure('blocked', 'The endpoint filtered the reply (content filter).');
    }
    for (const part of result.content) {
      if (part.type === 'text') yield { kind: 'text', text: part.text };
      else if (part.type === 'tool-call') {
        yield { kind: 'toolCall', callId: part.toolCallId, name: part.toolName, input: toolInput(part.input) };
      }
    }
  }
}

/** Tool arguments as JSON; arguments cut at the output limit stay text, which the core reads as a cut reply. */
function toolInput(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toCallOptions(request: ModelRequest, abortSignal: AbortSignal): CallOptions {
  const tools = request.tools ?? [];
  return {
    prompt: toPrompt(request.messages),
    abortSignal,
    ...(tools.length === 0
      ? {}
      : {
          tools: tools.map(tool => ({
            type: 'function' as const,
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
          })),
          toolChoice: { type: request.toolMode === 'required' ? ('required' as const) : ('auto' as const) },
        }),
  };
}

/** Port messages to the SDK's prompt; tool results become `tool` messages paired by call id. */
function toPrompt(messages: readonly ChatMessage[]): PromptMessage[] {
  const toolNames = new Map<string, string>();
  const prompt: PromptMessage[] = [];
  for (const message of messages) {
    const parts =
      typeof message.content === 'string' ? [{ kind: 'text', text: message.content } as const] : message.content;
    if (message.role === 'assistant') {
      prompt.push({
        role: 'assistant',
        content: parts.map(part => {
          if (part.kind === 'toolCall') {
            toolNames.set(part.callId, part.name);
            return { type: 'tool-call', toolCallId: part.callId, toolName: part.name, input: part.input };
          }
          return { type: 'text', text: part.kind === 'text' ? part.text : part.content };
        }),
      });
      continue;
    }
    const results = parts.flatMap(part => (part.kind === 'toolResult' ? [part] : []));
    if (results.length > 0) {
      prompt.push({
        role: 'tool',
        content: results.map(part => ({
          type: 'tool-result',
          toolCallId: part.callId,
          toolName: toolNames.get(part.callId) ?? 'tool',
          output: { type: 'text', value: part.content },
        })),
      });
    }
    const texts = parts.flatMap(part =>
      part.kind === 'text' ? [part.text] : part.kind === 'toolCall' ? [JSON.stringify(part.input)] : [],
    );
    if (texts.length > 0) prompt.push({ role: 'user', content: texts.map(text => ({ type: 'text', text })) });
  }
  return prompt;
}

/** An endpoint's HTTP failure as the port's error, with what to do about it. */
function toEndpointFailure(
  error: unknown,
  token: CancellationSignal,
  modelId: string,
  keyHint: string,
): LanguageModelFailure | CancelledError {
  if (token.isCancellationRequested) return new CancelledError();
  if (!APICallError.isInstance(error)) return toModelError(error, token);
  const status = error.statusCode;
  const said = providerMessage(error);
  if (status === 401 || status === 403) {
    return new LanguageModelFailure(
      'noPermissions',
      `The endpoint refused the API key (${status}): ${said}. Check ${keyHint}.`,
      error,
    );
  }
  if (status === 404) {
    return new LanguageModelFailure(
      'notFound',
      `The endpoint has no model "${modelId}" (404): ${said}. Pick another with --model (or in the config file's "models").`,
      error,
    );
  }
  if (status === 429) {
    const quota = /insufficient_quota|quota/i.test(`${said} ${error.responseBody ?? ''}`);
    const header = error.responseHeaders?.['retry-after'];
    const wait = header && /^\d+$/.test(header.trim()) ? Number(header) : retryAfterSeconds(said);
    return new LanguageModelFailure(
      quota ? 'quotaExceeded' : 'rateLimited',
      quota
        ? `The endpoint's quota is used up (429): ${said}.`
        : `The endpoint is rate limiting requests (429)${wait ? `; retry after ${wait} seconds` : ''}: ${said}.`,
      error,
      quota ? undefined : wait,
    );
  }
  // Anything else (a 400 refusing a schema included) goes through the core's one mapping, status kept in the text.
  const statusText = status === 400 ? '400 Bad Request' : String(status ?? 'no status');
  return toModelError(new Error(`${statusText}: ${said}`, { cause: error }), token);
}

/** The provider's own error message when its body has one, else the SDK's. */
function providerMessage(error: APICallError): string {
  try {
    const body = JSON.parse(error.responseBody ?? '') as { readonly error?: { readonly message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // not JSON: fall back to the SDK's message
  }
  return error.message;
}
