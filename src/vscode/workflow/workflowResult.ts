import type * as vscode from 'vscode';
import { SLASH } from '../../core/council/chatIntent';
import type { WorkflowRunStatus } from '../../core/deepWork/storedWorkflowRun';
import { decidePrompt } from './workflowRequest';

/** What a `/workflow` response remembers in `ChatResult.metadata`. */
export interface WorkflowResultMetadata {
  readonly workflow: 1;
  readonly runId?: string;
  readonly status?: WorkflowRunStatus;
  /** The pending checkpoint's options, for its buttons. */
  readonly options?: readonly { readonly label: string; readonly withFeedback: boolean }[];
}

/** The metadata of a `/workflow` response, if `result` is one. */
export function readWorkflowMetadata(result: vscode.ChatResult | undefined): WorkflowResultMetadata | undefined {
  const metadata = result?.metadata as Partial<WorkflowResultMetadata> | undefined;
  return metadata?.workflow === 1 ? (metadata as WorkflowResultMetadata) : undefined;
}

/**
 * The buttons under a `/workflow` response; undefined when `result` is not one. A checkpoint gets one button per
 * option (an option that takes feedback goes without; the response says how to add it); a stopped run gets Resume.
 */
export function workflowFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] | undefined {
  const metadata = readWorkflowMetadata(result);
  if (!metadata) return undefined;
  const { runId, status } = metadata;
  if (!runId) return [];
  const followup = (label: string, prompt: string): vscode.ChatFollowup => ({ label, prompt, command: SLASH.workflow });
  switch (status) {
    case 'paused':
      return (metadata.options ?? []).map((option, index) => followup(option.label, decidePrompt(runId, index + 1)));
    case 'failed':
      return [followup('Try again', `resume ${runId}`)];
    case 'cancelled':
    case 'needs_user':
    case 'running':
      return [followup('Resume', `resume ${runId}`)];
    default:
      return [];
  }
}
