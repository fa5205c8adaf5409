import type { PipelineRunState } from '../../core/plan/run/runState';
import { stageName } from './planProgress';
import type { PlanOutcome } from './planOutcome';
import { lastCompletedStage } from './planSummary';
import { runFailure } from '../workflow/runFailure';

/** What a stopped run kept, as one sentence. */
function savedProgress(state: PipelineRunState): string {
  const stage = lastCompletedStage(state);
  return stage ? `Progress up to ${stageName(stage)} is saved.` : 'No stage was completed yet.';
}

/**
 * The error box of a run that failed or was rejected: what happened and what to do in one or two sentences,
 * with the detail for the log. Undefined for outcomes that are not failures.
 */
export function planFailure(outcome: PlanOutcome): { readonly message: string; readonly detail: string } | undefined {
  return outcome.status === 'failed' ? runFailure(outcome.error, savedProgress(outcome.state)) : undefined;
}
