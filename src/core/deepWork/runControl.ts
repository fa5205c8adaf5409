import type { CheckpointAction } from '../nextSteps';
import { RUN_ID_PATTERN } from '../workflow/engine/runId';
import type { CheckpointDecision } from '../workflow/engine/checkpoints';
import { optionFor } from '../workflow/engine/checkpoints';
import type { PendingCheckpoint } from '../workflow/engine/workflowRunState';

/**
 * How a stored run is continued, the same for `/plan` and `/workflow` and for their tools: one grammar on the one
 * engine. The chat parses its text into it once ({@link parseRunControl}); the tools validate their input into it.
 */
export type RunControl =
  /** Pick a checkpoint option, by its number (from 1) or by what it does (`continue`, `redo`, `skip`). */
  | {
      readonly kind: 'decide';
      readonly runId?: string;
      readonly pick: { readonly option: number } | { readonly action: Exclude<CheckpointAction, 'abort'> };
      readonly feedback: string;
    }
  /** Go on after a stop or a failure; `answer` answers the question a run asked. */
  | { readonly kind: 'resume'; readonly runId?: string; readonly answer: string }
  /** Stop the run for good (at a checkpoint, `/plan` takes the checkpoint's abort option with `feedback`). */
  | { readonly kind: 'abort'; readonly runId?: string; readonly feedback: string };

const RUN = `(${RUN_ID_PATTERN})`;
const DECIDE = new RegExp(`^decide\\s+${RUN}\\s+(\\d+)(?:\\s+([\\s\\S]*))?$`, 'i');
const WORD = new RegExp(`^(continue|redo|skip|abort|resume)(?:\\s+${RUN})?(?:\\s+([\\s\\S]*))?$`, 'i');

/**
 * The run control in the text after `/plan` or `/workflow`, if it is one: `decide <run-id> <option> [feedback]` (what
 * the checkpoint buttons send), `resume <run-id> [answer]` (Resume, Try again), `abort <run-id>`, and the words
 * `continue`, `redo`, `skip` with a run id (a checkpoint's option by what it does). A word alone acts on the newest
 * run when `runOptional` (`/plan resume`); a word followed by other text is not a control ("continue the migration to
 * ESM" stays a goal).
 */
export function parseRunControl(text: string, runOptional: boolean): RunControl | undefined {
  const trimmed = text.trim();
  const decide = DECIDE.exec(trimmed);
  if (decide)
    return {
      kind: 'decide',
      runId: decide[1] ?? '',
      pick: { option: Number(decide[2]) },
      feedback: (decide[3] ?? '').trim(),
    };
  const word = WORD.exec(trimmed);
  if (!word) return undefined;
  const runId = word[2];
  const rest = (word[3] ?? '').trim();
  if (runId === undefined && (rest !== '' || !runOptional)) return undefined;
  const run = runId !== undefined ? { runId } : {};
  const verb = (word[1] ?? '').toLowerCase();
  if (verb === 'resume') return { kind: 'resume', ...run, answer: rest };
  if (verb === 'abort') return { kind: 'abort', ...run, feedback: rest };
  return { kind: 'decide', ...run, pick: { action: verb as 'continue' | 'redo' | 'skip' }, feedback: rest };
}

/** The text after `/plan` or `/workflow` that sends `control` (the inverse of {@link parseRunControl}). */
export function runControlText(control: RunControl): string {
  const run = control.runId ? ` ${control.runId}` : '';
  switch (control.kind) {
    case 'decide':
      return 'option' in control.pick
        ? `decide${run} ${control.pick.option}${control.feedback ? ` ${control.feedback}` : ''}`
        : `${control.pick.action}${run}${control.feedback ? ` ${control.feedback}` : ''}`;
    case 'resume':
      return `resume${run}${control.answer ? ` ${control.answer}` : ''}`;
    case 'abort':
      return `abort${run}${control.feedback ? ` ${control.feedback}` : ''}`;
  }
}

/**
 * The engine's decision for a pick at `pending`, or what is wrong with it: an option number out of range, or a kind
 * of option the checkpoint does not offer.
 */
export function decisionFor(
  pending: PendingCheckpoint,
  pick: Extract<RunControl, { kind: 'decide' }>['pick'] | { readonly action: 'abort' },
  feedback: string,
): CheckpointDecision | { readonly refused: string } {
  const text = feedback.trim();
  if ('option' in pick) {
    if (pick.option < 1 || pick.option > pending.options.length)
      return { refused: `That checkpoint has options 1 to ${pending.options.length}; pick one of its buttons.` };
    return { option: pick.option - 1, ...(text ? { feedback: text } : {}) };
  }
  return (
    optionFor(pending, { action: pick.action, ...(text ? { feedback: text } : {}) }) ?? {
      refused: `That checkpoint has no option to ${pick.action}; its options are: ${pending.options.map((o, i) => `${i + 1}. ${o.label}`).join(', ')}.`,
    }
  );
}
