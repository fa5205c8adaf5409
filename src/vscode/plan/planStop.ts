import { describeTurnStop } from '../../core/llm/turnStop';
import type { PipelineRunState } from '../../core/pipeline/run/runState';
import { stageName } from './planProgress';
import type { PlanOutcome } from './planOutcome';
import { lastCompletedStage } from './planSummary';

/** What a stopped run kept, as one sentence. */
export function savedProgress(state: PipelineRunState): string {
  const stage = lastCompletedStage(state);
  return stage ? `Progress up to ${stageName(stage)} is saved.` : 'No stage was completed yet.';
}

/**
 * The error box of a run that failed or was rejected: what happened and what to do in one or two sentences,
 * with the detail for the log. Undefined for outcomes that are not failures.
 */
export function planFailure(outcome: PlanOutcome): { readonly message: string; readonly detail: string } | undefined {
  const context = { kept: savedProgress(outcome.state), button: 'Try again' };
  if (outcome.status === 'failed') {
    const stop = describeTurnStop(outcome.error, context);
    return stop.kind === 'failed' ? stop : undefined;
  }
  if (outcome.status === 'rejected') {
    return {
      message: `An agent's result stayed invalid after its repairs, so the run stopped (the details are in the Council output channel). ${context.kept} Press **Try again** to rerun the stage, or pick a more capable model first.`,
      detail: outcome.message,
    };
  }
  return undefined;
}

