import { PIPELINE_STAGES, type PipelineStage } from '../../core/pipeline/schemas/agentType';
import type { PipelineRunState } from '../../core/pipeline/run/runState';

/** The stage the run completed last (the one a paused run's checkpoint was about), if any. */
export function lastCompletedStage(state: PipelineRunState): PipelineStage | undefined {
  return [...PIPELINE_STAGES].reverse().find(stage => state.stages[stage] !== undefined);
}

/**
 * "Redo stage": the state with `stage` and every later stage dropped, so a resumed run starts at `stage` again.
 * Its last pass is marked `redo` in the phases (kept for the run metadata).
 */
export function redoStage(state: PipelineRunState, stage: PipelineStage): PipelineRunState {
  const keep = PIPELINE_STAGES.slice(0, PIPELINE_STAGES.indexOf(stage));
  const stages = Object.fromEntries(Object.entries(state.stages).filter(([name]) => (keep as readonly string[]).includes(name)));
  const lastPass = state.phases.map(phase => phase.stage).lastIndexOf(stage);
  const phases = state.phases.map((phase, i) => (i === lastPass ? { ...phase, outcome: 'redo' as const } : phase));
  return { ...state, stages, phases, nextStage: stage, skipped: [] };
}

/** "Skip next stage": every later stage needs the one before it, so the run finishes here; the rest is skipped. */
export function skipRemainingStages(state: PipelineRunState): PipelineRunState {
  if (state.nextStage === null) return state;
  return { ...state, nextStage: null, skipped: PIPELINE_STAGES.slice(PIPELINE_STAGES.indexOf(state.nextStage)) };
}

/** The state with the user's answer (to a `needs_user` question) added to the constraints. */
export function withUserAnswer(state: PipelineRunState, answer: string): PipelineRunState {
  const text = answer.trim();
  return text ? { ...state, constraints: [...state.constraints, `The user answered: ${text}`] } : state;
}
