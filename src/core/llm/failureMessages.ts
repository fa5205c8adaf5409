import type { LanguageModelFailure, ModelFailureKind } from './languageModel';
import { TOO_LARGE_PREFIX } from './spending/governor';

/** What to tell the user for each failure kind: what happened, then what to do about it. */
const MESSAGES: Readonly<Record<ModelFailureKind, string>> = {
  noPermissions:
    'Council is not allowed to use this model yet. Allow access when VS Code asks (or under "Manage Language Model Access"), or pick another model in the model picker, then press Try again.',
  blocked:
    'The model refused this request under its content policy. Rephrase the request or pick another model in the model picker, then press Try again.',
  rateLimited:
    'The model provider is limiting how fast Council may send requests. Wait a minute, then press Try again.',
  quotaExceeded:
    "Your Copilot usage for this model is used up (your plan's AI credits or your spending limit). Pick a model included in your plan that costs no AI credits in the model picker and press Try again, or raise your spending limit in GitHub's billing settings.",
  tooLarge:
    "The prompt was larger than this model's context window. Pick a model with a larger context window, or shorten the request, then press Try again.",
  notFound: 'The selected model is no longer available. Pick another model in the model picker, then press Try again.',
  offTopic:
    'The model declined this request as off-topic. Rephrase it so the software task is explicit, or pick another model in the model picker, then press Try again.',
  cancelled: 'The request was cancelled. Press Try again to continue where it stopped.',
  malformedReply:
    'The model kept answering in the wrong format, even after being shown its mistakes. Press Try again, or pick a more capable model in the model picker.',
  budgetSpent:
    'This session has reached its spending limit. Raise `council.budget.maxCredits` (or `council.budget.maxRequests`) in the settings, then press Try again to continue where it stopped.',
  unknown: 'The model call failed. Press Try again; if it keeps failing, pick another model in the model picker.',
};

/** How a reply cut at the model's output limit twice is described (its message names the limit and is shown as it is). */
export const REPLY_CUT_PREFIX = "The model's reply was cut off at its output limit";

/** Text from elsewhere (a provider's message) shown inside Markdown as plain text: no code fences, links or emphasis. */
export function markdownSafe(text: string): string {
  return text
    .replace(/[\\`*_[\]<>#|~]/g, character => `\\${character}`)
    .replace(/\s+/g, ' ')
    .trim();
}

/** Ends `text` with a full stop unless it already ends a sentence. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?)]$/.test(trimmed) || trimmed === '' ? trimmed : `${trimmed}.`;
}

/**
 * A message for the chat response that says what went wrong with a model call and what the user can do.
 * Rate limits say how long to wait when the provider said; unknown failures quote the provider's message
 * (escaped), since it is the only clue there is.
 */
export function describeModelFailure(
  failure: Pick<LanguageModelFailure, 'kind' | 'message' | 'retryAfterSeconds'>,
): string {
  if (failure.kind === 'rateLimited' && failure.retryAfterSeconds !== undefined) {
    const wait = failure.retryAfterSeconds;
    return `The model provider is limiting how fast Council may send requests. Wait ${wait} second${wait === 1 ? '' : 's'}, then press Try again.`;
  }
  // The budget's own message names the figures (used, limit, what the next step needs).
  if (failure.kind === 'budgetSpent' && failure.message.trim() !== '') return failure.message;
  // Council's own measure of a request too large for the model names the figures.
  if (failure.kind === 'tooLarge' && failure.message.startsWith(TOO_LARGE_PREFIX)) return failure.message;
  if (failure.kind === 'malformedReply' && failure.message.startsWith(REPLY_CUT_PREFIX)) return failure.message;
  const advice = MESSAGES[failure.kind];
  const detail = markdownSafe(failure.message.replace(/^The model request failed:\s*/, ''));
  return failure.kind === 'unknown' && detail.length > 0 ? `${advice} (Details: ${sentence(detail)})` : advice;
}
