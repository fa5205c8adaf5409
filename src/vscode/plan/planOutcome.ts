import type { PipelineRunState } from '../../core/plan/run/runState';
import type { DeepWorkOutcome } from '../../core/deepWork/runDeepWork';

/** How a `/plan` turn ended, in the pipeline's terms (what the plan's chat text is written from). */
export type PlanOutcome =
  | { readonly status: 'completed' | 'aborted' | 'cancelled' | 'paused'; readonly state: PipelineRunState }
  /** The context manager needs the user to answer `question` before the run can go on. */
  | { readonly status: 'needs_user'; readonly question: string; readonly state: PipelineRunState }
  /** A model call failed, or the workflow could not go on (`error` says why). */
  | { readonly status: 'failed'; readonly message: string; readonly error: unknown; readonly state: PipelineRunState };

/** The plan's view of a workflow outcome. */
export function planOutcomeOf(outcome: DeepWorkOutcome): PlanOutcome {
  const state = outcome.pipeline;
  switch (outcome.status) {
    case 'needs_user':
      return { status: 'needs_user', question: outcome.question, state };
    case 'failed':
      return { status: 'failed', message: outcome.message, error: outcome.error, state };
    default:
      return { status: outcome.status, state };
  }
}
