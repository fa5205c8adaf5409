import { CancelledError, LanguageModelFailure, type CancellationSignal, type ModelFailureKind } from './languageModel';

/*
 * The one mapping from whatever a model call throws to the port's errors. Providers differ in how they say
 * things (VS Code's LanguageModelError has a `code`; Copilot names errors ChatQuotaExceeded/ChatRateLimited or
 * only says it in the message), so the code, the name and the message (and its cause's) are all read.
 */

/** LanguageModelError codes (vscode.LanguageModelError.X.name) and Copilot error names, to failure kinds. */
const KIND_BY_CODE: Readonly<Record<string, ModelFailureKind>> = {
  NoPermissions: 'noPermissions',
  Blocked: 'blocked',
  NotFound: 'notFound',
  ChatQuotaExceeded: 'quotaExceeded',
  ChatRateLimited: 'rateLimited',
};

function textOf(value: unknown): string {
  if (value instanceof Error) return `${value.name} ${value.message}`;
  return typeof value === 'string' ? value : '';
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { readonly code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Seconds to wait, from "retry after 30 seconds", "Retry-After: 30", "try again in 2 minutes" and the like. */
export function retryAfterSeconds(text: string): number | undefined {
  const match =
    /(?:retry[- ]after|try again in|wait)\D{0,12}?(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec(?:ond)?s?|m|min(?:ute)?s?)?\b/i.exec(
      text,
    );
  if (!match?.[1]) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  const perUnit = unit === 'ms' || unit.startsWith('mil') ? 0.001 : unit.startsWith('m') ? 60 : 1;
  const seconds = Number(match[1]) * perUnit;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}

/** The failure kind an error stands for, from its code, name and message. */
export function failureKindOf(error: unknown): ModelFailureKind {
  const byCode = KIND_BY_CODE[codeOf(error) ?? ''] ?? KIND_BY_CODE[error instanceof Error ? error.name : ''];
  const text = [codeOf(error) ?? '', textOf(error), textOf((error as { cause?: unknown } | undefined)?.cause)].join(
    ' ',
  );
  if (/ChatQuotaExceeded|quota (?:exceeded|reached|used up)|exceeded your .*quota/i.test(text)) return 'quotaExceeded';
  if (/ChatRateLimited|rate[_ -]?limit|too many requests/i.test(text)) return 'rateLimited';
  if (/exceeds? (?:the )?token limit|context (?:length|window) exceeded|prompt is too long|too many tokens/i.test(text))
    return 'tooLarge';
  if (byCode) return byCode;
  if (/off[_ -]?topic/i.test(text)) return 'offTopic';
  return 'unknown';
}

/**
 * Whether a failed request was refused as invalid, which with a tool attached means its schema: Gemini answers a
 * keyword outside its subset with "Invalid JSON payload received. Unknown name …", which Copilot surfaces as an
 * opaque "400 Bad Request". Such a request can be asked again without tools (see requestStructured).
 */
export function isSchemaRefusal(error: unknown): boolean {
  const text = [textOf(error), textOf((error as { cause?: unknown } | undefined)?.cause)].join(' ');
  return /\b400\b|Bad Request|Invalid schema|Unknown name|Invalid JSON payload|invalid_request_error/i.test(text);
}

/**
 * Maps anything a model call threw to CancelledError (cancellation wins over everything) or a
 * LanguageModelFailure with a kind the user can act on and, when known, how long to wait.
 */
export function toModelError(error: unknown, token?: CancellationSignal): LanguageModelFailure | CancelledError {
  if (error instanceof CancelledError) return error;
  if (token?.isCancellationRequested) return new CancelledError();
  if (error instanceof LanguageModelFailure) return error;
  if (error instanceof Error && (error.name === 'Canceled' || error.name === 'CancellationError'))
    return new CancelledError();
  const message = error instanceof Error ? error.message : String(error);
  const kind = failureKindOf(error);
  const wait =
    kind === 'rateLimited'
      ? retryAfterSeconds([message, textOf((error as { cause?: unknown } | undefined)?.cause)].join(' '))
      : undefined;
  return new LanguageModelFailure(
    kind,
    kind === 'unknown' ? `The model request failed: ${message}` : message,
    error,
    wait,
  );
}
