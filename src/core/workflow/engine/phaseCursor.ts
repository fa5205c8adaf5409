import { ActionableError } from '../../actionableError';
import type { PhaseDefinition, WorkflowDefinition } from '../definition/workflowDefinition';
import type { CheckpointDecision } from './checkpoints';
import type { PendingCheckpoint, WorkflowRunState } from './workflowRunState';

/**
 * Where a run stands among its phases, and how it moves: a phase completes, phases reopen (a repeat, a route-back),
 * skipped phases are passed over, a checkpoint's decision is applied. All of it changes the run state in place and
 * nothing else, so the engine's loop only decides when.
 */
export class PhaseCursor {
  constructor(
    private readonly workflow: WorkflowDefinition,
    private readonly st: WorkflowRunState,
    /** Passes one phase may take in a run: the one bound on a phase running again, whoever asks for it. */
    private readonly maxPasses: number,
  ) {}

  /**
   * Why the phases from `first` through `last` (default: `first` alone) cannot all run once more, or undefined when
   * they can. A phase runs again when the user repeats it at a checkpoint, an agent sends the run back to it, or a
   * failed run is tried again: each pass counts against the same bound.
   */
  passRefusal(first: string, last: string = first): string | undefined {
    const { phases } = this.workflow;
    const from = phases.findIndex(phase => phase.id === first);
    const to = Math.max(
      from,
      phases.findIndex(phase => phase.id === last),
    );
    const spent = phases
      .slice(from, to + 1)
      .find(phase => (this.st.context.phases.iteration_counts[phase.id] ?? 0) >= this.maxPasses);
    return spent && `phase \`${spent.id}\` already ran ${this.maxPasses} times in this run, the most one phase may`;
  }

  phase(id: string): PhaseDefinition | undefined {
    return this.workflow.phases.find(phase => phase.id === id);
  }

  /** The earliest phase whose subagents (listed or `always`) include `type`: where a route-back to it goes. */
  phaseSpawning(type: string): PhaseDefinition | undefined {
    return this.workflow.phases.find(
      ({ agents }) =>
        agents.behavior !== 'main-only' &&
        (agents.mode === 'adaptive' ? agents.always : agents.subagents).some(spec => spec.type === type),
    );
  }

  /** `phase` is done; the run goes on with the phase after it. */
  complete(phase: PhaseDefinition): void {
    const { context } = this.st;
    if (!context.phases.completed.includes(phase.id)) context.phases.completed.push(phase.id);
    const tally = this.st.phaseTallies[phase.id];
    if (tally) tally.status = 'completed';
    this.st.nextPhase = this.workflow.phases[this.workflow.phases.indexOf(phase) + 1]?.id ?? null;
  }

  /** From `target` on, phases count as not done, and the run goes on at `target`. */
  reopenFrom(target: string): void {
    const { context } = this.st;
    const index = this.workflow.phases.findIndex(phase => phase.id === target);
    const reopened = new Set(this.workflow.phases.slice(index).map(phase => phase.id));
    context.phases.completed = context.phases.completed.filter(id => !reopened.has(id));
    context.skip_phases = context.skip_phases.filter(id => id !== target);
    this.st.nextPhase = target;
  }

  /** The next phase to run, passing over skipped ones (marked skipped); null when none is left. */
  next(): string | null {
    let id = this.st.nextPhase;
    while (id !== null && this.st.context.skip_phases.includes(id)) {
      const tally = this.st.phaseTallies[id];
      if (tally && tally.status === 'pending') tally.status = 'skipped';
      id = this.workflow.phases[this.workflow.phases.findIndex(phase => phase.id === id) + 1]?.id ?? null;
    }
    this.st.nextPhase = id;
    return id;
  }

  /**
   * Applies the user's choice at `pending`, recording it (spec 002's checkpoint record). Returns what happens next:
   * the run ends (abort, with its sentence), or goes on; `completed` names a phase an accepted gap check completed,
   * whose own checkpoint the engine offers next.
   */
  decide(
    pending: PendingCheckpoint,
    choice: CheckpointDecision,
    now: string,
  ): { readonly abort: string } | { readonly completed?: PhaseDefinition } {
    const option = pending.options[choice.option];
    if (!option)
      throw new ActionableError(
        `That checkpoint has ${pending.options.length} options; option ${choice.option + 1} does not exist. Pick one of its buttons.`,
      );
    const phase = this.phase(pending.phase);
    if (!phase)
      throw new ActionableError(
        `The saved checkpoint names phase \`${pending.phase}\`, which ${this.workflow.source.path} no longer has. Start the workflow again.`,
      );
    const feedback = option.withFeedback ? choice.feedback?.trim() || undefined : undefined;
    const { onSelect } = option;
    // A repeat past the phases' passes is refused here, so the checkpoint stays open for another option.
    const spent = onSelect.action === 'repeat_phase' ? this.passRefusal(onSelect.target, phase.id) : undefined;
    if (spent) throw new ActionableError(`The ${spent}: pick another option at its checkpoint.`);
    const { context } = this.st;
    context.checkpoints.push({
      phase: pending.phase,
      decision: onSelect.action,
      label: option.label,
      ...(onSelect.action === 'skip_phases' ? { skipped: [...onSelect.phases] } : {}),
      ...(feedback ? { feedback } : {}),
      timestamp: now,
    });
    delete this.st.pendingCheckpoint;
    if (onSelect.action === 'abort') return { abort: `Stopped at ${phase.name}, as chosen at its checkpoint.` };
    if (onSelect.action === 'repeat_phase') {
      this.reopenFrom(onSelect.target);
      if (feedback) this.st.feedback = { forPhase: onSelect.target, text: feedback };
      return {};
    }
    if (onSelect.action === 'skip_phases')
      context.skip_phases = [...new Set([...context.skip_phases, ...onSelect.phases])];
    // Accepting a gap check's gaps completes the phase; its own checkpoint comes next.
    const completed = pending.origin === 'gap_check' ? phase : undefined;
    if (completed) this.complete(completed);
    const next = this.next();
    if (feedback && next) this.st.feedback = { forPhase: next, text: feedback };
    return completed ? { completed } : {};
  }
}
