import { CancelledError, LanguageModelFailure } from '../../llm/languageModel';
import { HandoffRejected } from '../handoff/handoffWithRepair';
import { NeedsUserInput } from '../stages/needsUserInput';
import type { PipelineRunState } from './runState';

/** How a call to runPipeline ended. Every outcome carries the state to resume from. */
export type PipelineRunOutcome =
  | { readonly status: 'completed'; readonly state: PipelineRunState }
  /** The checkpoint answered 'abort'; the state resumes at the next stage. */
  | { readonly status: 'aborted'; readonly state: PipelineRunState }
  | { readonly status: 'cancelled'; readonly state: PipelineRunState }
  /** The context manager needs the user to answer `question` before the run can go on. */
  | { readonly status: 'needs_user'; readonly question: string; readonly reason: string; readonly state: PipelineRunState }
  /** A handoff stayed invalid after its repairs; `message` is the user-facing summary. */
  | { readonly status: 'rejected'; readonly message: string; readonly error: HandoffRejected; readonly state: PipelineRunState }
  /** A model call failed (e.g. a reply that stayed malformed, such as a ticket graph that stayed cyclic). */
  | { readonly status: 'failed'; readonly message: string; readonly error: LanguageModelFailure; readonly state: PipelineRunState };

/** Maps an error that ended a stage to an outcome; rethrows what the pipeline does not know how to report. */
export function outcomeOfError(error: unknown, state: PipelineRunState): PipelineRunOutcome {
  if (error instanceof CancelledError) return { status: 'cancelled', state };
  if (error instanceof NeedsUserInput) return { status: 'needs_user', question: error.question, reason: error.reason, state };
  if (error instanceof HandoffRejected) return { status: 'rejected', message: error.summary, error, state };
  if (error instanceof LanguageModelFailure) {
    if (error.kind === 'cancelled') return { status: 'cancelled', state };
    return { status: 'failed', message: error.message, error, state };
  }
  throw error;
}
