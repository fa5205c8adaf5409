import { describeTurnStop } from '../../core/llm/turnStop';

/**
 * The error box of a deep-work run (`/plan` or `/workflow`) that failed: what happened and what to do in one or two
 * sentences, with the detail for the log. `kept` says what is saved. Undefined for Stop.
 */
export function runFailure(
  error: unknown,
  kept: string,
): { readonly message: string; readonly detail: string } | undefined {
  const stop = describeTurnStop(error, { kept, button: 'Try again' });
  return stop.kind === 'failed' ? stop : undefined;
}
