import type { PlanRequest } from '../deepWork/planRequest';
import type { WorkflowRequest } from '../deepWork/workflowRequest';
import { runControlOf, type PlanInput, type WorkflowInput } from '../../core/deepWork/deepWorkInput';

/*
 * `council_plan`'s and `council_workflow`'s inputs (core/deepWork/deepWorkInput.ts) as the same typed requests the
 * chat parses from `/plan` and `/workflow`.
 */

/** The `/plan` request `input` makes (its `answer` is the older name of `feedback`). */
export function planRequestOf(input: PlanInput): PlanRequest {
  if (input.runId)
    return { kind: 'run', control: runControlOf(input.runId, { ...input, feedback: input.feedback ?? input.answer }) };
  const goal = input.goal?.trim();
  return goal ? { kind: 'start', goal } : { kind: 'session' };
}

/** The `/workflow` request `input` makes. */
export function workflowRequestOf(input: WorkflowInput): WorkflowRequest {
  if (input.runId) return { kind: 'run', control: { ...runControlOf(input.runId, input), runId: input.runId } };
  if (!input.workflow) return { kind: 'list' };
  return { kind: 'start', name: input.workflow, goal: input.goal?.trim() ?? '', flags: input.flags ?? [] };
}
