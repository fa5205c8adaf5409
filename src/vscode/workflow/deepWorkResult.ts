import type * as vscode from 'vscode';
import { SLASH } from '../../core/council/chatIntent';
import type { PipelineStage } from '../../core/plan/schemas/agentType';
import type { WorkflowRunStatus } from '../../core/deepWork/storedWorkflowRun';
import { lastCompletedStage, readBoard } from '../../core/plan/pipelineBoard';
import type { WorkflowRunState } from '../../core/workflow/engine/workflowRunState';

/** Which command answered: `/plan` or `/workflow` (the buttons send their prompts to the same one). */
export type DeepWorkDoor = { readonly plan: 1 } | { readonly workflow: 1 };
export const PLAN_DOOR = { plan: 1 } as const;
export const WORKFLOW_DOOR = { workflow: 1 } as const;

/** A checkpoint option as a button: its label (from the workflow file) and the prompt that picks it. */
export type DeepWorkButton = Required<Pick<vscode.ChatFollowup, 'label' | 'prompt'>>;

/** What a `/plan` or `/workflow` response remembers in `ChatResult.metadata`: the run and where it stands. */
export type DeepWorkResultMetadata = DeepWorkDoor & {
  /** Absent when no run started (e.g. `/plan` without a goal, `/workflow` alone). */
  readonly runId?: string;
  readonly status?: WorkflowRunStatus;
  /** The stage a `/plan` run stopped after (at a checkpoint). */
  readonly stage?: PipelineStage;
  /** The pending checkpoint's options, for its buttons. */
  readonly options?: readonly DeepWorkButton[];
};

/** The metadata of a response about a run: its id, its status and the last stage it completed. */
export function runMetadata(
  door: DeepWorkDoor,
  state: WorkflowRunState,
  status: WorkflowRunStatus,
): DeepWorkResultMetadata {
  const stage = lastCompletedStage(readBoard(state.blackboard));
  return { ...door, runId: state.runId, status, ...(stage ? { stage } : {}) };
}

/** The metadata of a `/plan` or `/workflow` response, if `result` is one. */
export function readDeepWorkMetadata(result: vscode.ChatResult | undefined): DeepWorkResultMetadata | undefined {
  const metadata = result?.metadata as Partial<{ plan: 1; workflow: 1 }> | undefined;
  return metadata?.plan === 1 || metadata?.workflow === 1 ? (metadata as DeepWorkResultMetadata) : undefined;
}

/**
 * The buttons under a `/plan` or `/workflow` response; undefined when `result` is not one. A checkpoint gets one
 * button per option; a stopped run gets Resume (Try again after a failure). Each click sends its prompt to the same
 * command as a new chat request, which resumes the stored run.
 */
export function deepWorkFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] | undefined {
  const metadata = readDeepWorkMetadata(result);
  if (!metadata) return undefined;
  const { runId, status } = metadata;
  if (!runId) return [];
  const plan = 'plan' in metadata;
  const command = plan ? SLASH.plan : SLASH.workflow;
  const button = (label: string, prompt: string): vscode.ChatFollowup => ({ label, prompt, command });
  switch (status) {
    case 'paused':
      return (metadata.options ?? []).map(option => ({ ...option, command }));
    case 'failed':
      return [button('Try again', `resume ${runId}`)];
    case 'aborted':
      // An aborted plan stays resumable (its response says so); an aborted workflow run is over.
      return plan ? [button('Resume', `resume ${runId}`)] : [];
    case 'cancelled':
    case 'needs_user':
    case 'running':
      return [button('Resume', `resume ${runId}`)];
    default:
      return [];
  }
}
