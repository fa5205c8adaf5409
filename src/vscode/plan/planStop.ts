import { lastCompletedStage, type PipelineBoard } from '../../core/plan/pipelineBoard';
import { stageName } from './planProgress';
import { runFailure } from '../workflow/runFailure';

/** What a stopped run kept, as one sentence. */
function savedProgress(board: PipelineBoard): string {
  const stage = lastCompletedStage(board);
  return stage ? `Progress up to ${stageName(stage)} is saved.` : 'No stage was completed yet.';
}

/**
 * The error box of a run that failed (`board`: its stages' records): what happened and what to do in one or two
 * sentences, with the detail for the log; undefined for an error that is not the user's to see.
 */
export function planFailure(
  error: unknown,
  board: PipelineBoard,
): { readonly message: string; readonly detail: string } | undefined {
  return runFailure(error, savedProgress(board));
}
