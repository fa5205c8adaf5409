import type { CheckpointAction, CheckpointChoice, NextStep, RunRef } from '../nextSteps';
import type { PendingCheckpoint } from '../workflow/engine/workflowRunState';
import type { WorkflowRunStatus } from './storedWorkflowRun';

/** The step kind of each checkpoint option's engine action. */
const ACTION: Readonly<Record<PendingCheckpoint['options'][number]['onSelect']['action'], CheckpointAction>> = {
  continue: 'continue',
  repeat_phase: 'redo',
  skip_phases: 'skip',
  abort: 'abort',
};

/** A pending checkpoint's options as choices, numbered from 1 in the workflow file's order. */
function checkpointChoices(pending: PendingCheckpoint): CheckpointChoice[] {
  return pending.options.map((option, index) => ({
    option: index + 1,
    label: option.label,
    action: ACTION[option.onSelect.action],
    takesFeedback: option.withFeedback,
  }));
}

/**
 * What the user can do next with a run that is `status`: at a checkpoint, pick one of its options; after a failure,
 * try again; after Stop, a question or a run left running, resume. An aborted `/plan` run stays resumable (its
 * response says so); an aborted workflow run and a completed run are over.
 */
export function runNextSteps(run: RunRef, status: WorkflowRunStatus, pending?: PendingCheckpoint): NextStep[] {
  switch (status) {
    case 'paused':
      return pending ? checkpointChoices(pending).map(choice => ({ kind: 'choose', run, choice })) : [];
    case 'failed':
      return [{ kind: 'retry', of: { run }, after: 'failure' }];
    case 'aborted':
      return run.command === 'plan' ? [{ kind: 'retry', of: { run }, after: 'stop' }] : [];
    case 'cancelled':
    case 'needs_user':
    case 'running':
      return [{ kind: 'retry', of: { run }, after: 'stop' }];
    case 'completed':
      return [];
  }
}
