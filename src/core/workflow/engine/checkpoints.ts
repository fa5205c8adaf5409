import type {
  CheckpointDefinition,
  CheckpointOption,
  PhaseDefinition,
  WorkflowDefinition,
} from '../definition/workflowDefinition';
import { fillTemplate } from './templating';
import type { PendingCheckpoint } from './workflowRunState';

/** What the user chose at a checkpoint: the option's index, and the feedback they typed (for `with_feedback`). */
export interface CheckpointDecision {
  readonly option: number;
  readonly feedback?: string;
}

/** What a button asks for, by kind: the option that does it is looked up in the pending checkpoint. */
export type CheckpointChoice = { readonly action: 'continue' | 'redo' | 'skip' | 'abort'; readonly feedback?: string };

/**
 * The decision for a choice made by kind (the `/plan` buttons): the first option with that action, preferring one
 * that takes feedback when feedback was typed. Undefined when the checkpoint offers no such option.
 */
export function optionFor(pending: PendingCheckpoint, choice: CheckpointChoice): CheckpointDecision | undefined {
  const action = { continue: 'continue', redo: 'repeat_phase', skip: 'skip_phases', abort: 'abort' }[choice.action];
  const feedback = choice.feedback?.trim();
  const candidates = pending.options
    .map((option, index) => ({ option, index }))
    .filter(({ option }) => option.onSelect.action === action);
  const pick =
    (feedback
      ? candidates.find(({ option }) => option.withFeedback)
      : candidates.find(({ option }) => !option.withFeedback)) ?? candidates[0];
  return pick ? { option: pick.index, ...(feedback ? { feedback } : {}) } : undefined;
}

function redo(phase: PhaseDefinition): CheckpointOption {
  return { label: `Redo ${phase.name}`, withFeedback: true, onSelect: { action: 'repeat_phase', target: phase.id } };
}

const ABORT: CheckpointOption = { label: 'Abort', withFeedback: false, onSelect: { action: 'abort' } };

/** The checkpoint to show after `phase` (its condition already checked). */
export function pendingCheckpointOf(
  workflow: WorkflowDefinition,
  phase: PhaseDefinition,
  checkpoint: CheckpointDefinition,
  values: Readonly<Record<string, string>>,
  skipPhases: readonly string[],
): PendingCheckpoint {
  if (checkpoint.kind === 'approval') {
    const later = workflow.phases.slice(workflow.phases.findIndex(candidate => candidate.id === phase.id) + 1);
    const next = later.find(candidate => !skipPhases.includes(candidate.id));
    return {
      phase: phase.id,
      origin: 'checkpoint',
      prompt: `${phase.name} is done. Review its output, then continue, redo it or stop.`,
      files: [],
      // `approval_required: true`: continue, redo the phase, skip the next phase (when there is one), abort.
      options: [
        { label: 'Continue', withFeedback: false, onSelect: { action: 'continue' } },
        { label: 'Continue with feedback', withFeedback: true, onSelect: { action: 'continue' } },
        redo(phase),
        ...(next
          ? [
              {
                label: `Skip ${next.name}`,
                withFeedback: false,
                onSelect: { action: 'skip_phases' as const, phases: [next.id] },
              },
            ]
          : []),
        ABORT,
      ],
    };
  }
  return {
    phase: phase.id,
    origin: 'checkpoint',
    prompt: fillTemplate(checkpoint.prompt, values),
    files: checkpoint.showFiles.map(file => fillTemplate(file, values)),
    options: [...checkpoint.options],
  };
}

/** A gap check that asks the user (`escalate`, or its iterations used up). */
export function escalationOf(phase: PhaseDefinition, message: string, gaps: readonly string[]): PendingCheckpoint {
  const list = gaps.length ? `\n\n${gaps.map(gap => `- ${gap}`).join('\n')}` : '';
  return {
    phase: phase.id,
    origin: 'gap_check',
    prompt: `${message}${list}`,
    files: [],
    options: [{ label: 'Continue anyway', withFeedback: false, onSelect: { action: 'continue' } }, redo(phase), ABORT],
  };
}
