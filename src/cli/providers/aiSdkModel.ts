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
 * sends, unchanged; a provider that refuses a schema gets the core's JSON-in-the-reply repair. A model without tool
 * calling (the config says so, or its endpoint refused tools with a 400) gets them through the provider's JSON mode:
 * the core's response format, the same schema, as the SDK's `responseFormat`.
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
  /** False: the model takes no tools, structured replies go through JSON mode. Default true. */
  readonly toolCalling?: boolean;
}

/**
 * A 400 saying the model or endpoint takes no tools: Ollama's "… does not support tools", vLLM's "\"auto\" tool
 * choice requires --enable-auto-tool-choice", llama.cpp's "tools param requires --jinja flag", and the plain
 * "tools are not supported" / "does not support tool use" of other servers.
 */
const TOOLS_REFUSED =
  /does not support (?:tools|tool (?:use|calling|calls))|tools? (?:use |calling |calls )?(?:is |are )?not supported|tool[_ ]choice requires|tools param requires/i;

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
  private readonly chat: LanguageModelV3;
  private readonly keyHint: string;
  private toolCalling: boolean;
  /** The endpoint's refusal of tools, once it said so: told again to a request still carrying tools. */
  private toolsRefusal: LanguageModelFailure | undefined;
  private spent: ReportedUsage = { requests: 0, inputTokens: 0, outputTokens: 0 };

  constructor(settings: AiSdkModelSettings) {
    this.id = settings.modelId;
    this.name = settings.modelId;
    this.family = settings.modelId;
    this.vendor = settings.vendor;
    this.maxInputTokens = settings.maxInputTokens;
    this.chat = settings.chat;
    this.keyHint = settings.keyHint;
    this.toolCalling = settings.toolCalling ?? true;
  }

  /** False from the start when the config says so, or from the endpoint's first refusal of tools on. */
  get supportsToolCalling(): boolean {
    return this.toolCalling;
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
    const withTools = (request.tools?.length ?? 0) > 0;
    // Never send tools again to an endpoint that refused them: the caller asks again in JSON mode.
    if (withTools && !this.toolCalling) throw this.toolsRefusal ?? noToolsConfigured(this.id);
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    let result: Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
    try {
      result = await this.chat.doGenerate(toCallOptions(request, abort.signal));
    } catch (error) {
      const failure = toEndpointFailure(error, token, this.id, this.keyHint);
      if (withTools && failure instanceof LanguageModelFailure && refusesTools(error)) {
        this.toolCalling = false;
        this.toolsRefusal = failure;
      }
      throw failure;
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

/** Whether a failed request was the endpoint refusing tools altogether (not one schema). */
function refusesTools(error: unknown): boolean {
  return (
    APICallError.isInstance(error) &&
    error.statusCode === 400 &&
    TOOLS_REFUSED.test(`${providerMessage(error)} ${error.responseBody ?? ''}`)
  );
}

/** A request with tools to a model the config says takes none: refused as the endpoint would, nothing sent. */
function noToolsConfigured(modelId: string): LanguageModelFailure {
  return new LanguageModelFailure(
    'unknown',
    `400 Bad Request (not sent): the config says ${modelId} takes no tools ("toolCalling": false).`,
  );
}

/** The portable schemas are not strict-mode schemas (optional fields stay optional): OpenAI's strict decoding is off. */
const LENIENT_SCHEMA = { openaiCompatible: { strictJsonSchema: false } };

function toCallOptions(request: ModelRequest, abortSignal: AbortSignal): CallOptions {
  const tools = request.tools ?? [];
  const format = request.responseFormat;
  return {
    prompt: toPrompt(request.messages),
    abortSignal,
    ...(format
      ? {
          responseFormat: {
            type: 'json' as const,
            schema: format.schema,
            name: format.name,
            description: format.description,
          },
          providerOptions: LENIENT_SCHEMA,
        }
      : {}),
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
