import { z } from 'zod';
import type { RunControl } from './runControl';
import { RUN_ID } from '../workflow/engine/runId';

/*
 * What `council_plan` and `council_workflow` take, the same in every door (VS Code's tools, package.json
 * `contributes.languageModelTools`, and the MCP server), validated into the run-control grammar the chat parses from
 * `/plan` and `/workflow`: no door builds the other's text.
 */

const RunId = z.string().trim().regex(RUN_ID, 'runId is the id a result named, e.g. run-0f1e… or wf-0f1e…');
const Option = z.number().int().min(1);

/** `council_plan`'s input: a goal (or a session's answer) to plan, or a run to continue with the user's choice. */
export const PlanInputSchema = z
  .object({
    goal: z.string().optional(),
    sessionId: z.string().trim().min(1).optional(),
    runId: RunId.optional(),
    option: Option.optional(),
    action: z.enum(['continue', 'redo', 'skip', 'abort', 'resume']).optional(),
    feedback: z.string().optional(),
    answer: z.string().optional(),
  })
  .refine(i => Boolean(i.goal?.trim()) || i.sessionId !== undefined || i.runId !== undefined, {
    message: 'give a `goal` to plan, a council `sessionId` whose answer to plan, or a `runId` to continue',
  })
  .refine(i => !(i.option !== undefined && i.action !== undefined), {
    message: 'give a checkpoint `option` or an `action`, not both',
  });
export type PlanInput = z.infer<typeof PlanInputSchema>;

/** `council_workflow`'s input: list (nothing), run (`workflow` + `goal`), or continue a run (`runId` + `option` or `action`). */
export const WorkflowInputSchema = z
  .object({
    workflow: z.string().trim().min(1).optional(),
    goal: z.string().optional(),
    flags: z.array(z.string()).optional(),
    runId: RunId.optional(),
    option: Option.optional(),
    action: z.enum(['resume', 'abort']).optional(),
    feedback: z.string().optional(),
  })
  .refine(i => !(i.workflow !== undefined && i.runId !== undefined), {
    message: 'give `workflow` (with a `goal`) to start a run, or `runId` to continue one, not both',
  });
export type WorkflowInput = z.infer<typeof WorkflowInputSchema>;

/**
 * How a tool's input continues a run, in the chat's grammar: an option number (or, for `council_plan`, the kind of
 * option: continue, redo, skip), abort, or resume (the default) with the user's answer.
 */
export function runControlOf(
  runId: string,
  input: { readonly option?: number; readonly action?: string; readonly feedback?: string },
): RunControl {
  const feedback = input.feedback?.trim() ?? '';
  if (input.option !== undefined) return { kind: 'decide', runId, pick: { option: input.option }, feedback };
  switch (input.action) {
    case 'continue':
    case 'redo':
    case 'skip':
      return { kind: 'decide', runId, pick: { action: input.action }, feedback };
    case 'abort':
      return { kind: 'abort', runId, feedback };
    default:
      return { kind: 'resume', runId, answer: feedback };
  }
}
