import { RUN_ID_PATTERN } from '../../core/workflow/engine/runId';
import type { PendingCheckpoint } from '../../core/workflow/engine/workflowRunState';
import type { DeepWorkButton } from '../workflow/deepWorkResult';

/** What follows `/plan`: a new goal, a control word from a checkpoint button, or nothing. */
export type PlanRequest =
  | { readonly kind: 'start'; readonly goal: string }
  /** A checkpoint or error button: `/plan <action> <run-id> [text]`; without a run id, the latest run. */
  | { readonly kind: 'control'; readonly action: PlanAction; readonly runId?: string; readonly text: string }
  | { readonly kind: 'empty' };

/** The checkpoint and error buttons' actions. */
export type PlanAction = 'continue' | 'redo' | 'skip' | 'abort' | 'resume';

const CONTROL = new RegExp(`^(continue|redo|skip|abort|resume)(?:\\s+(${RUN_ID_PATTERN}))?(?:\\s+([\\s\\S]*))?$`, 'i');

/**
 * Parses the text after `/plan`. A control word only counts alone or followed by a run id (`continue wf-…`), so a
 * goal such as "continue the migration to ESM" stays a goal.
 */
export function parsePlanRequest(text: string): PlanRequest {
  const trimmed = text.trim();
  if (!trimmed) return { kind: 'empty' };
  const match = CONTROL.exec(trimmed);
  if (match && (match[2] !== undefined || match[3] === undefined)) {
    const action = (match[1] ?? '').toLowerCase() as PlanAction;
    return { kind: 'control', action, ...(match[2] ? { runId: match[2] } : {}), text: (match[3] ?? '').trim() };
  }
  return { kind: 'start', goal: trimmed };
}

/** The prompt a button sends after `/plan` (the inverse of {@link parsePlanRequest}). */
export function planControlPrompt(action: PlanAction, runId: string): string {
  return `${action} ${runId}`;
}

/** The control word that picks each kind of checkpoint option. */
const WORD: Readonly<Record<PendingCheckpoint['options'][number]['onSelect']['action'], PlanAction>> = {
  continue: 'continue',
  repeat_phase: 'redo',
  skip_phases: 'skip',
  abort: 'abort',
};

/** The buttons of a pending checkpoint: one per option of the workflow file, in its order and with its label. */
export function planButtons(pending: PendingCheckpoint, runId: string): DeepWorkButton[] {
  return pending.options.map(option => ({
    label: option.label,
    prompt: planControlPrompt(WORD[option.onSelect.action], runId),
  }));
}
