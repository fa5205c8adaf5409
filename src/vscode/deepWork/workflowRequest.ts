import { parseRunControl, type RunControl } from '../../core/deepWork/runControl';

/**
 * What a `/workflow` request asks for, from the chat (parsed once, at its edge, by {@link parseWorkflowRequest}) or
 * from the `council_workflow` tool (validated from its input).
 */
export type WorkflowRequest =
  | { readonly kind: 'list' }
  /** `/workflow <name> [--flags a,b] <goal>` */
  | { readonly kind: 'start'; readonly name: string; readonly goal: string; readonly flags: readonly string[] }
  /** A stored run to continue (always by its id): `decide <run-id> <option> [feedback]`, `resume`, `abort`. */
  | { readonly kind: 'run'; readonly control: RunControl & { readonly runId: string } };

const FLAGS = /^--flags[=\s]+([a-z0-9_,-]+)\s*/i;

/** Parses the text after `/workflow`. */
export function parseWorkflowRequest(text: string): WorkflowRequest {
  const trimmed = text.trim();
  if (!trimmed) return { kind: 'list' };
  const control = parseRunControl(trimmed, false);
  if (control?.runId !== undefined) return { kind: 'run', control: { ...control, runId: control.runId } };
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
