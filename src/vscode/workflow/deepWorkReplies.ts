import * as vscode from 'vscode';
import type { PlanResultMetadata } from '../plan/planResult';
import type { WorkflowOutcome } from '../../core/workflow/engine/runWorkflow';
import type { DeepWorkTurnResult } from './deepWorkTurn';
import type { WorkflowResultMetadata } from './workflowResult';

/* What `/plan` and `/workflow` answer alike, each in its own words and metadata. */

/** Why a run cannot start here (an untrusted workspace, no folder open), in the handler's words; undefined when it can. */
export function workspaceRefusal(words: { readonly untrusted: string; readonly noFolder: string }): string | undefined {
  if (!vscode.workspace.isTrusted) return words.untrusted;
  if (!vscode.workspace.workspaceFolders?.length) return words.noFolder;
  return undefined;
}

/** The message a run is stored with after `outcome` (its failure, abort sentence or question), if any. */
export function storedMessage(outcome: WorkflowOutcome): string | undefined {
  if (outcome.status === 'failed' || outcome.status === 'aborted') return outcome.message;
  return outcome.status === 'needs_user' ? outcome.question : undefined;
}

/** The chat result of a turn the engine did not report on: the handler's metadata with the run, if one was saved. */
export function stoppedTurnResult(
  turn: Extract<DeepWorkTurnResult, { readonly kind: 'stopped' }>,
  handler: Pick<PlanResultMetadata, 'plan'> | Pick<WorkflowResultMetadata, 'workflow'>,
): vscode.ChatResult {
  const metadata: PlanResultMetadata | WorkflowResultMetadata = {
    ...handler,
    ...(turn.runId ? { runId: turn.runId, status: turn.status } : {}),
  };
  return { metadata, ...(turn.errorMessage ? { errorDetails: { message: turn.errorMessage } } : {}) };
}
