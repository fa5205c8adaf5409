import { LanguageModelFailure } from '../../../core/llm/languageModel';
import { retryAfterSeconds, toModelError } from '../../../core/llm/modelErrors';
import { LOG_IN } from './copilotRuntime';

/*
 * Copilot CLI's errors (a `session.error` event, or a failed JSON-RPC call) as the port's failures, with what to
 * do about them. Its `errorType` names the category; the status code, when it has one, is kept in the text so
 * the core still recognises a 400 schema refusal.
 */

/** The fields of a `session.error` event this mapping reads. */
export interface CopilotError {
  readonly errorType?: string;
  readonly errorCode?: string;
  readonly message: string;
  readonly statusCode?: number;
}

const NOT_LOGGED_IN = /not authenticated|no github oauth token|copilot hmac key|please (?:log ?in|authenticate)/i;
const NO_MODEL = /model\b.*\b(?:not (?:found|available|supported)|unavailable|unknown|is not enabled)|unknown model/i;

export function copilotFailure(error: CopilotError, modelId: string): LanguageModelFailure {
  const { errorType = '', message, statusCode } = error;
  if (errorType === 'authentication' || NOT_LOGGED_IN.test(message)) {
    return new LanguageModelFailure('noPermissions', `Copilot CLI is not logged in (${message}): ${LOG_IN}.`, error);
  }
  if (statusCode === 404 || NO_MODEL.test(message)) {
    return new LanguageModelFailure(
      'notFound',
      `Copilot has no model "${modelId}" for this account (${message}). Name another in the config file's "models" (\`/model\` in \`copilot\` lists yours), e.g. "copilot:gpt-5-mini".`,
      error,
    );
  }
  if (errorType === 'authorization') {
    return new LanguageModelFailure(
      'noPermissions',
      `Copilot refused the request for ${modelId} (${message}). Check that your Copilot plan, and your organization's policy, allow this model.`,
      error,
    );
  }
  if (errorType === 'quota') {
    return new LanguageModelFailure('quotaExceeded', `Your Copilot usage is used up for now (${message}).`, error);
  }
  if (errorType === 'rate_limit') {
    const wait = retryAfterSeconds(message);
    return new LanguageModelFailure(
      'rateLimited',
      `Copilot is rate limiting requests${wait ? `; retry after ${wait} seconds` : ''} (${message}).`,
      error,
      wait,
    );
  }
  if (errorType === 'context_limit') {
    return new LanguageModelFailure('tooLarge', `The request is larger than ${modelId} takes (${message}).`, error);
  }
  const status = statusCode === 400 ? '400 Bad Request: ' : statusCode ? `${statusCode}: ` : '';
  const mapped = toModelError(new Error(`${status}${message}`, { cause: error }));
  return mapped instanceof LanguageModelFailure ? mapped : new LanguageModelFailure('unknown', message, error);
}

/** A thrown error (a JSON-RPC call the CLI refused) as a failure. */
export function thrownFailure(error: unknown, modelId: string): LanguageModelFailure {
  if (error instanceof LanguageModelFailure) return error;
  return copilotFailure({ message: error instanceof Error ? error.message : String(error) }, modelId);
}
