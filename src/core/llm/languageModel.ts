/**
 * The language-model port: everything the core needs from a chat model.
 * The VS Code adapter wraps `vscode.LanguageModelChat`; tests use a scripted model.
 * Shapes mirror `vscode.lm` so the adapter stays a thin mapping.
 */

/** Structurally identical to `vscode.CancellationToken`, so a VS Code token can be passed straight in. */
export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

export type ChatRole = 'user' | 'assistant';

/** A tool call the assistant made in an earlier turn (kept so repair prompts can show it). */
export interface ToolCallPart {
  readonly kind: 'toolCall';
  readonly callId: string;
  readonly name: string;
  readonly input: unknown;
}

/** The result sent back for a tool call. */
export interface ToolResultPart {
  readonly kind: 'toolResult';
  readonly callId: string;
  readonly content: string;
}

export interface TextPart {
  readonly kind: 'text';
  readonly text: string;
}

export type MessagePart = TextPart | ToolCallPart | ToolResultPart;

export interface ChatMessage {
  readonly role: ChatRole;
  /** Plain text, or parts when the message carries tool calls / results. */
  readonly content: string | readonly MessagePart[];
}

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's input. */
  readonly inputSchema: object;
}

/** A structured reply asked for without tools: one JSON object matching `schema` (the prompt says so too). */
export interface ResponseFormat {
  readonly name: string;
  readonly description: string;
  /** The same portable JSON Schema a tool would carry. */
  readonly schema: object;
}

export interface ModelRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolDefinition[];
  /** `required`: the model must call one of `tools` (VS Code's LanguageModelChatToolMode.Required). */
  readonly toolMode?: 'auto' | 'required';
  /**
   * Set on a structured request to a model that takes no tools: a provider with a JSON mode constrains the reply to
   * the schema; a host without one (VS Code's chat models) leaves it to the prompt's instruction.
   */
  readonly responseFormat?: ResponseFormat;
  /** Shown by VS Code when it asks the user to allow the model call. */
  readonly justification?: string;
}

/** One streamed piece of a model's reply. */
export type ResponsePart = TextPart | ToolCallPart;

export interface LanguageModel {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly vendor: string;
  /** Budget for the rendered prompt. */
  readonly maxInputTokens: number;
  /**
   * Whether the model can be asked for a (required) tool call. It may turn false during a session, when the
   * endpoint refuses tools: read it before each request.
   */
  readonly supportsToolCalling: boolean;
  /** The most tokens one reply may have, when the provider says (a reply is cut there). */
  readonly maxOutputTokens?: number;
  /** Streams the reply. Rejects with a LanguageModelFailure (or the cancellation error) on failure. */
  sendRequest(request: ModelRequest, token: CancellationSignal): AsyncIterable<ResponsePart>;
  countTokens(text: string, token?: CancellationSignal): Promise<number>;
}

/** `model` with its requests sent through `sendRequest` (which may pass them on to `model`); the rest is `model`'s. */
export function withSendRequest(model: LanguageModel, sendRequest: LanguageModel['sendRequest']): LanguageModel {
  const { id, name, family, vendor, maxInputTokens, maxOutputTokens } = model;
  const countTokens: LanguageModel['countTokens'] = (text, token) => model.countTokens(text, token);
  return {
    id,
    name,
    family,
    vendor,
    maxInputTokens,
    // Read through: the model may learn mid-session that its endpoint takes no tools.
    get supportsToolCalling() {
      return model.supportsToolCalling;
    },
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    countTokens,
    sendRequest,
  };
}

/** Why a model call failed, in terms the user can act on (mirrors vscode.LanguageModelError codes). */
export type ModelFailureKind =
  | 'noPermissions'
  | 'blocked'
  /** Too many requests in a short time (Copilot's ChatRateLimited, or Blocked "too many requests"). */
  | 'rateLimited'
  /** The user's Copilot usage (AI credits or spending limit) is used up (Copilot's ChatQuotaExceeded). */
  | 'quotaExceeded'
  /** The prompt is larger than the model's context window ("Message exceeds token limit"). */
  | 'tooLarge'
  | 'notFound'
  | 'offTopic'
  | 'cancelled'
  | 'malformedReply'
  /** The session's request budget (`council.budget.maxRequests`) has no request left for this call. */
  | 'budgetSpent'
  | 'unknown';

/** A model call that failed; `kind` drives the message shown to the user. */
export class LanguageModelFailure extends Error {
  constructor(
    readonly kind: ModelFailureKind,
    message: string,
    override readonly cause?: unknown,
    /** Seconds the provider asked to wait before retrying, when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'LanguageModelFailure';
  }
}

/** Thrown when the user's cancellation stops a step; sessions treat it as "paused", not "failed". */
export class CancelledError extends Error {
  constructor(message = 'The request was cancelled.') {
    super(message);
    this.name = 'CancelledError';
  }
}

/** Throws CancelledError if the signal is already cancelled. */
export function throwIfCancelled(token: CancellationSignal): void {
  if (token.isCancellationRequested) throw new CancelledError();
}

/** A signal that is never cancelled, for callers that have none. */
export const neverCancelled: CancellationSignal = {
  isCancellationRequested: false,
  onCancellationRequested: () => ({ dispose() {} }),
};
