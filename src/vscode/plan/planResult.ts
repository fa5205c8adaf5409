import type * as vscode from 'vscode';
import { SLASH } from '../../core/council/chatIntent';
import type { PipelineStage } from '../../core/plan/schemas/agentType';
import type { WorkflowRunStatus } from '../../core/deepWork/storedWorkflowRun';
import type { PendingCheckpoint } from '../../core/workflow/engine/workflowRunState';
import { planControlPrompt, type PlanAction } from './planRequest';

/** A checkpoint option as a `/plan` button: its label (from the workflow file) and the control word that picks it. */
interface PlanButton {
  readonly label: string;
  readonly action: PlanAction;
}

/** What a `/plan` response remembers in `ChatResult.metadata`: the run and where it stands. */
export interface PlanResultMetadata {
  readonly plan: 1;
  /** Absent when no run started (e.g. `/plan` without a goal). */
  readonly runId?: string;
  readonly status?: WorkflowRunStatus;
  /** The stage the run stopped after (at a checkpoint). */
  readonly stage?: PipelineStage;
  /** The pending checkpoint's options, for its buttons. */
  readonly options?: readonly PlanButton[];
}

const WORD: Readonly<Record<PendingCheckpoint['options'][number]['onSelect']['action'], PlanAction>> = {
  continue: 'continue',
  repeat_phase: 'redo',
  skip_phases: 'skip',
  abort: 'abort',
};

/** The buttons of a pending checkpoint: one per option of the workflow file, in its order and with its label. */
export function planButtons(pending: PendingCheckpoint): PlanButton[] {
  return pending.options.map(option => ({ label: option.label, action: WORD[option.onSelect.action] }));
}

/** The metadata of a `/plan` response, if `result` is one. */
export function readPlanMetadata(result: vscode.ChatResult | undefined): PlanResultMetadata | undefined {
  const metadata = result?.metadata as Partial<PlanResultMetadata> | undefined;
  return metadata?.plan === 1 ? (metadata as PlanResultMetadata) : undefined;
}

function button(label: string, action: PlanAction, runId: string): vscode.ChatFollowup {
  return { label, prompt: planControlPrompt(action, runId), command: SLASH.plan };
}

/**
 * The buttons under a `/plan` response; undefined when `result` is not one. Each click sends `/plan <action> <run-id>`
 * as a new chat request, which resumes the stored run.
 */
export function planFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] | undefined {
  const metadata = readPlanMetadata(result);
  if (!metadata) return undefined;
  const { runId, status } = metadata;
  if (!runId) return [];
  switch (status) {
    case 'paused':
      return (metadata.options ?? []).map(option => button(option.label, option.action, runId));
    case 'failed':
      return [button('Try again', 'resume', runId)];
    case 'cancelled':
    case 'aborted':
    case 'needs_user':
    case 'running':
      return [button('Resume', 'resume', runId)];
    default:
      return [];
  }
}
