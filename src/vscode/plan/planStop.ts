import type { PipelineRunState } from '../../core/plan/run/runState';
import { stageName } from './planProgress';
import { lastCompletedStage } from './planSummary';
import { runFailure } from '../workflow/runFailure';

/** What a stopped run kept, as one sentence. */
function savedProgress(state: PipelineRunState): string {
  const stage = lastCompletedStage(state);
  return stage ? `Progress up to ${stageName(stage)} is saved.` : 'No stage was completed yet.';
}

/**
 * The error box of a run that failed (`state`: the pipeline's view of it): what happened and what to do in one or two
 * sentences, with the detail for the log; undefined for an error that is not the user's to see.
 */
export function planFailure(
  error: unknown,
  state: PipelineRunState,
): { readonly message: string; readonly detail: string } | undefined {
  return runFailure(error, savedProgress(state));
}
