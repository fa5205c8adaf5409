import { describeTurnStop } from '../../core/llm/turnStop';
import { HandoffRejected } from '../../core/pipeline/handoff/handoffWithRepair';

/**
 * The error box of a deep-work run (`/plan` or `/workflow`) that failed: what happened and what to do in one or two
 * sentences, with the detail for the log. `kept` says what is saved. An agent's result that stayed invalid after its
 * repairs gets its own advice; everything else is described as any stopped turn is. Undefined for Stop.
 */
export function runFailure(
  error: unknown,
  kept: string,
): { readonly message: string; readonly detail: string } | undefined {
  if (error instanceof HandoffRejected) {
    return {
      message: `An agent's result stayed invalid after its repairs, so the run stopped (the details are in the Council output channel). ${kept} Press **Try again** to rerun the stage, or pick a more capable model first.`,
      detail: error.summary,
    };
  }
  const stop = describeTurnStop(error, { kept, button: 'Try again' });
  return stop.kind === 'failed' ? stop : undefined;
}
