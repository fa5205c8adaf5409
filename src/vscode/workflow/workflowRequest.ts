import { RUN_ID_PATTERN } from '../../core/workflow/engine/runId';
import type { PendingCheckpoint } from '../../core/workflow/engine/workflowRunState';
import type { DeepWorkButton } from './deepWorkResult';

/** What follows `/workflow`. */
export type WorkflowRequest =
  | { readonly kind: 'list' }
  /** `/workflow <name> [--flags a,b] <goal>` */
  | { readonly kind: 'start'; readonly name: string; readonly goal: string; readonly flags: readonly string[] }
  /** A checkpoint button: `/workflow decide <run-id> <option> [feedback]` (option counts from 1). */
  | { readonly kind: 'decide'; readonly runId: string; readonly option: number; readonly feedback: string }
  /** `/workflow resume <run-id>` (after Stop or a failure) or `/workflow abort <run-id>`. */
  | { readonly kind: 'resume' | 'abort'; readonly runId: string; readonly text: string };

const RUN_ID = `(${RUN_ID_PATTERN})`;
const DECIDE = new RegExp(`^decide\\s+${RUN_ID}\\s+(\\d+)(?:\\s+([\\s\\S]*))?$`, 'i');
const CONTROL = new RegExp(`^(resume|abort)\\s+${RUN_ID}(?:\\s+([\\s\\S]*))?$`, 'i');
const FLAGS = /^--flags[=\s]+([a-z0-9_,-]+)\s*/i;

/** Parses the text after `/workflow`. */
export function parseWorkflowRequest(text: string): WorkflowRequest {
  const trimmed = text.trim();
  if (!trimmed) return { kind: 'list' };
  const decide = DECIDE.exec(trimmed);
  if (decide)
    return { kind: 'decide', runId: decide[1] ?? '', option: Number(decide[2]), feedback: (decide[3] ?? '').trim() };
  const control = CONTROL.exec(trimmed);
  if (control)
    return {
      kind: (control[1] ?? '').toLowerCase() as 'resume' | 'abort',
      runId: control[2] ?? '',
      text: (control[3] ?? '').trim(),
    };
  const [name = ''] = trimmed.split(/\s+/);
  let goal = trimmed.slice(name.length).trim();
  let flags: string[] = [];
  const flagMatch = FLAGS.exec(goal);
  if (flagMatch) {
    flags = (flagMatch[1] ?? '').split(',').filter(Boolean);
    goal = goal.slice(flagMatch[0].length).trim();
  }
  return { kind: 'start', name, goal, flags };
}

/** The prompt a checkpoint button sends after `/workflow` (option counts from 1). */
export function decidePrompt(runId: string, option: number, feedback = ''): string {
  return `decide ${runId} ${option}${feedback ? ` ${feedback}` : ''}`;
}

/** The buttons of a pending checkpoint: one per option of the workflow file (one that takes feedback too: the response says how to add it). */
export function workflowButtons(pending: PendingCheckpoint, runId: string): DeepWorkButton[] {
  return pending.options.map((option, index) => ({ label: option.label, prompt: decidePrompt(runId, index + 1) }));
}
