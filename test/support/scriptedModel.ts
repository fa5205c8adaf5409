import {
  CancelledError,
  type CancellationSignal,
  type ChatMessage,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
  type ToolDefinition,
} from '../../src/core/llm/languageModel';
import { RESPONSE_FORMAT_HEADING } from '../../src/core/llm/structuredOutput';
import { messageText } from '../../src/core/llm/usage';

/** One streamed part, optionally after a delay (to test streaming and cancellation). */
export type ScriptedPart = ResponsePart & { readonly delayMs?: number };

/** What the scripted model answers to one request. A plain string is a text reply. */
export type ScriptedReply =
  | string
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly name: string; readonly input: unknown; readonly callId?: string }
  /** The value as a tool call when the request requires a tool, else as a fenced JSON block. */
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'parts'; readonly parts: readonly ScriptedPart[] }
  /** Throws `error`, after streaming `after` first ("throws mid-stream"). */
  | { readonly kind: 'error'; readonly error: Error; readonly after?: readonly ScriptedPart[] };

/** Decides the reply to the `callIndex`-th request (0-based, over the model's lifetime). */
export type Responder = (request: ModelRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedModelOptions {
  /** Fixed delay before each reply starts; cancellable. */
  readonly latencyMs?: number;
  /** Default true. */
  readonly supportsToolCalling?: boolean;
  /** Default 128 000. */
  readonly maxInputTokens?: number;
  readonly id?: string;
  readonly family?: string;
  /** The model's output limit, when the test gives it one (the model itself does not cut). */
  readonly maxOutputTokens?: number;
}

/** A request as the scripted model saw it. */
export interface RecordedRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly toolMode: ModelRequest['toolMode'];
  readonly responseFormat?: ModelRequest['responseFormat'];
}

/** Waits `ms`, rejecting with CancelledError as soon as the token fires. */
export function cancellableDelay(ms: number, token: CancellationSignal): Promise<void> {
  if (token.isCancellationRequested) return Promise.reject(new CancelledError());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const subscription = token.onCancellationRequested(() => {
      clearTimeout(timer);
      subscription.dispose();
      reject(new CancelledError());
    });
    const timer = setTimeout(() => {
      subscription.dispose();
      resolve();
    }, ms);
  });
}

/** `ceil(chars / 4)`: close enough to real tokenizers for budgets, and deterministic. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A deterministic LanguageModel for tests and the benchmark; it records every request. */
export class ScriptedModel implements LanguageModel {
  readonly id: string;
  readonly name = 'Scripted model';
  readonly family: string;
  readonly vendor = 'test';
  readonly maxInputTokens: number;
  readonly supportsToolCalling: boolean;
  readonly maxOutputTokens?: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  private readonly latencyMs: number;

  constructor(
    private readonly responder: Responder,
    options: ScriptedModelOptions = {},
  ) {
    this.id = options.id ?? 'scripted';
    this.family = options.family ?? 'scripted';
    this.maxInputTokens = options.maxInputTokens ?? 128_000;
    this.supportsToolCalling = options.supportsToolCalling ?? true;
    this.latencyMs = options.latencyMs ?? 0;
    if (options.maxOutputTokens !== undefined) this.maxOutputTokens = options.maxOutputTokens;
  }

  /** Number of requests received so far. */
  get callCount(): number {
    return this.requests.length;
  }

  /** The most recent request (throws if there was none, to keep assertions short). */
  get lastRequest(): RecordedRequest {
    const last = this.requests[this.requests.length - 1];
    if (!last) throw new Error('ScriptedModel: no request was made');
    return last;
  }

  async *sendRequest(request: ModelRequest, token: CancellationSignal): AsyncIterable<ResponsePart> {
    const callIndex = this.requests.length;
    this.requests.push({
      messages: request.messages,
      tools: request.tools ?? [],
      toolMode: request.toolMode,
      ...(request.responseFormat ? { responseFormat: request.responseFormat } : {}),
    });
    await cancellableDelay(this.latencyMs, token);
    const reply = await this.responder(request, callIndex);
    yield* this.stream(partsOf(reply, request, callIndex), token);
    if (typeof reply !== 'string' && reply.kind === 'error') throw reply.error;
  }

  private async *stream(parts: readonly ScriptedPart[], token: CancellationSignal): AsyncIterable<ResponsePart> {
    for (const { delayMs, ...part } of parts) {
      await cancellableDelay(delayMs ?? 0, token);
      yield part as ResponsePart;
    }
  }

  countTokens(text: string): Promise<number> {
    return Promise.resolve(estimateTokens(text));
  }
}

function partsOf(reply: ScriptedReply, request: ModelRequest, callIndex: number): readonly ScriptedPart[] {
  if (typeof reply === 'string') return [{ kind: 'text', text: reply }];
  switch (reply.kind) {
    case 'text':
      return [{ kind: 'text', text: reply.text }];
    case 'toolCall':
      return [{ kind: 'toolCall', callId: reply.callId ?? `call-${callIndex}`, name: reply.name, input: reply.input }];
    case 'value': {
      const tool = request.toolMode === 'required' ? request.tools?.[0] : undefined;
      if (tool) return [{ kind: 'toolCall', callId: `call-${callIndex}`, name: tool.name, input: reply.value }];
      return [{ kind: 'text', text: jsonReply(reply.value) }];
    }
    case 'parts':
      return reply.parts;
    case 'error':
      return reply.after ?? [];
  }
}

/** A tool-call reply. */
export function toolCallReply(name: string, input: unknown): ScriptedReply {
  return { kind: 'toolCall', name, input };
}

/** A text reply holding `value` in a ```json fenced block. */
export function jsonReply(value: unknown): string {
  return '```json\n' + JSON.stringify(value, null, 2) + '\n```';
}

/** A structured answer in whichever form the request asked for (tool call or fenced JSON). */
export function valueReply(value: unknown): ScriptedReply {
  return { kind: 'value', value };
}

/** The schema name a structured request asks for: its required tool, or the fenced-JSON instruction's marker. */
export function requestedName(request: ModelRequest): string | undefined {
  if (request.toolMode === 'required' && request.tools?.[0]) return request.tools[0].name;
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (!message) continue;
    const text = messageText(message);
    const at = text.lastIndexOf(RESPONSE_FORMAT_HEADING);
    if (at >= 0) return /^[\w.-]+/.exec(text.slice(at + RESPONSE_FORMAT_HEADING.length))?.[0];
  }
  return undefined;
}

/**
 * A route's reply: fixed, a sequence (one per call to this route; the last repeats),
 * or a function of the request and this route's call index.
 */
export type Route = ScriptedReply | readonly ScriptedReply[] | Responder;

/**
 * A responder that routes on the requested schema name, e.g.
 * `replyByTool({ select_personas: valueReply({...}) })`. `fallback` answers requests with no
 * name (free text); an unrouted name throws so a test shows what it forgot to script.
 */
export function replyByTool(routes: Readonly<Record<string, Route>>, fallback?: Route): Responder {
  const calls = new Map<string, number>();
  return (request, callIndex) => {
    const name = requestedName(request);
    const route = name === undefined ? fallback : (routes[name] ?? fallback);
    if (route === undefined)
      throw new Error(`ScriptedModel: no reply scripted for "${name ?? 'free text'}" (call ${callIndex})`);
    const key = name ?? '';
    const routeCall = calls.get(key) ?? 0;
    calls.set(key, routeCall + 1);
    if (typeof route === 'function') return route(request, routeCall);
    if (isSequence(route)) {
      const reply = route[Math.min(routeCall, route.length - 1)];
      if (reply === undefined) throw new Error(`ScriptedModel: empty reply sequence for "${key}"`);
      return reply;
    }
    return route;
  };
}

function isSequence(route: ScriptedReply | readonly ScriptedReply[]): route is readonly ScriptedReply[] {
  return Array.isArray(route);
}

/** A cancellation signal the test controls. */
export interface TestCancellation {
  readonly token: CancellationSignal;
  cancel(): void;
}

/** Creates a cancellation signal plus its trigger (like vscode.CancellationTokenSource). */
export function cancellationSource(): TestCancellation {
  const listeners = new Set<() => unknown>();
  let cancelled = false;
  const token: CancellationSignal = {
    get isCancellationRequested() {
      return cancelled;
    },
    onCancellationRequested(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  };
  return {
    token,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      for (const listener of [...listeners]) listener();
    },
  };
}
