import type { LanguageModelFailure, ModelFailureKind } from './languageModel';

/** What to tell the user for each failure kind: what happened, then what to do about it. */
const MESSAGES: Readonly<Record<ModelFailureKind, string>> = {
  noPermissions:
    'Council is not allowed to use this model. Allow access when VS Code asks (or under "Manage Language Model Access"), or pick another model in the model picker, then press Try again.',
  blocked:
    'The model refused this request (blocked by its content policy or a quota). Rephrase it or pick another model in the model picker, then press Try again.',
  notFound:
    'The selected model is no longer available. Pick another model in the model picker, then press Try again.',
  offTopic:
    'The model declined this request as off-topic. Rephrase it so the software task is explicit, or pick another model in the model picker, then press Try again.',
  cancelled: 'The request was cancelled. Press Try again to continue where the council stopped.',
  malformedReply:
    'The model kept answering in the wrong format, even after being shown its mistakes. Press Try again, or pick a more capable model in the model picker.',
  unknown: 'The model call failed. Press Try again; if it keeps failing, pick another model in the model picker.',
};

/**
 * A message for the chat response that says what went wrong with a model call and what the user can do.
 * Unknown failures also quote the model's own message, since it is the only clue there is.
 */
export function describeModelFailure(failure: Pick<LanguageModelFailure, 'kind' | 'message'>): string {
  const advice = MESSAGES[failure.kind];
  const detail = failure.message.trim();
  return failure.kind === 'unknown' && detail.length > 0 ? `${advice} (Details: ${detail})` : advice;
}
