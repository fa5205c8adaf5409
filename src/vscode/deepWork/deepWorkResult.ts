import type * as vscode from 'vscode';
import type { NextStep } from '../../core/nextSteps';
import type { PipelineStage } from '../../core/plan/schemas/agentType';
import type { WorkflowRunStatus } from '../../core/deepWork/storedWorkflowRun';
import { chatFollowups } from '../chat/chatNextSteps';

/* What a `/plan` or `/workflow` chat response remembers, and the buttons under it (its next steps). */

/** What a `/plan` or `/workflow` response remembers in `ChatResult.metadata`: the run, where it stands, what is next. */
export type DeepWorkResultMetadata = ({ readonly plan: 1 } | { readonly workflow: 1 }) & {
  /** Absent when no run started (e.g. `/plan` without a goal, `/workflow` alone). */
  readonly runId?: string;
  readonly status?: WorkflowRunStatus;
  /** The stage a `/plan` run completed last. */
  readonly stage?: PipelineStage;
  /** What the user can do next, decided in the core; the buttons show it. */
  readonly next?: readonly NextStep[];
};

/** The metadata of a `/plan` or `/workflow` response, if `result` is one. */
export function readDeepWorkMetadata(result: vscode.ChatResult | undefined): DeepWorkResultMetadata | undefined {
  const metadata = result?.metadata as Partial<{ plan: 1; workflow: 1 }> | undefined;
  return metadata?.plan === 1 || metadata?.workflow === 1 ? (metadata as DeepWorkResultMetadata) : undefined;
}

/**
 * The buttons under a `/plan` or `/workflow` response (its next steps); undefined when `result` is not one. Each click
 * sends its prompt to the same command as a new chat request, which continues the stored run.
 */
export function deepWorkFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] | undefined {
  const metadata = readDeepWorkMetadata(result);
  return metadata ? chatFollowups(metadata.next ?? []) : undefined;
}
