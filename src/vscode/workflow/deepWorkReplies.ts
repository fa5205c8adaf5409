import * as vscode from 'vscode';
import type { WorkflowOutcome } from '../../core/workflow/engine/runWorkflow';

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
