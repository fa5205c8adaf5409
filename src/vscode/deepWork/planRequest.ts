import { parseRunControl, type RunControl } from '../../core/deepWork/runControl';

/**
 * What a `/plan` request asks for, from the chat (parsed once, at its edge, by {@link parsePlanRequest}) or from the
 * `council_plan` tool (validated from its input): a new goal, the thread's council answer to plan, or a stored run
 * to continue (the same grammar as `/workflow`'s).
 */
export type PlanRequest =
  | { readonly kind: 'start'; readonly goal: string }
  /** No goal: plan the answer of the council session (the thread's, or the one the tool names). */
  | { readonly kind: 'session' }
  | { readonly kind: 'run'; readonly control: RunControl };

/**
 * Parses the text after `/plan`. A control word only counts alone or followed by a run id (`continue wf-…`), so a
 * goal such as "continue the migration to ESM" stays a goal; alone, it acts on the newest run.
 */
export function parsePlanRequest(text: string): PlanRequest {
  const trimmed = text.trim();
  if (!trimmed) return { kind: 'session' };
  const control = parseRunControl(trimmed, true);
  return control ? { kind: 'run', control } : { kind: 'start', goal: trimmed };
}
