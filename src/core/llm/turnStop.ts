import { ActionableError } from '../actionableError';
import { describeModelFailure } from './failureMessages';
import { CancelledError, LanguageModelFailure } from './languageModel';

/**
 * Why a chat turn stopped early, for both chat handlers (council and `/plan`): Stop is not a failure, a
 * model failure says what to do, anything else is an internal problem whose detail goes to the log only.
 */
export type TurnStop =
  | { readonly kind: 'cancelled'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string; readonly detail: string };

/** What the turn keeps and the button that goes on from there. */
export interface StopContext {
  /** One sentence: what is saved, e.g. "The session is saved." */
  readonly kept: string;
  /** The follow-up button that continues, e.g. "Try again" or "Resume". */
  readonly button: string;
}

/** One or two sentences for the user, and (for failures) the detail for the log. */
export function describeTurnStop(error: unknown, context: StopContext, cancelled = false): TurnStop {
  const goOn = `Press **${context.button}** to continue where it stopped; nothing done so far is repeated.`;
  if (
    cancelled ||
    error instanceof CancelledError ||
    (error instanceof LanguageModelFailure && error.kind === 'cancelled')
  ) {
    return { kind: 'cancelled', message: `Stopped. ${context.kept} ${goOn}` };
  }
  if (error instanceof ActionableError)
    return { kind: 'failed', message: `${error.message} ${context.kept}`, detail: error.message };
  if (error instanceof LanguageModelFailure) {
    return {
      kind: 'failed',
      message: `${describeModelFailure(error)} ${context.kept}`,
      detail: `${error.kind}: ${error.message}`,
    };
  }
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return {
    kind: 'failed',
    message: `Council stopped on an internal problem (the details are in the Council output channel). ${context.kept} ${goOn}`,
    detail,
  };
}
