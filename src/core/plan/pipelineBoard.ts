import type { z } from 'zod';
import { PIPELINE_STAGES, type PipelineStage } from './schemas/agentType';
import { PipelineRunState } from './run/runState';
import type { WorkflowDefinition } from '../workflow/definition/workflowDefinition';
import type { Blackboard } from '../workflow/engine/agentTypes';
import type { WorkflowRunState } from '../workflow/engine/workflowRunState';
import { phaseStatus } from '../workflow/engine/workflowMetadata';
import { phaseRequests } from '../workflow/engine/workflowRunState';

/** The blackboard key the pipeline stage types keep their records under. */
export const PIPELINE_BOARD_KEY = 'pipeline';

/**
 * What the pipeline stages share across phases (spec 000's run bookkeeping), saved with the workflow run: the part
 * of the pipeline's run state that is the stages' own (where the run goes next is the workflow's).
 */
export const PipelineBoard = PipelineRunState.pick({
  goal: true,
  constraints: true,
  rootContextId: true,
  nextSequence: true,
  knownContextIds: true,
  stages: true,
});
export type PipelineBoard = z.infer<typeof PipelineBoard>;

/**
 * The board of a run. It is validated once, when a stored run is read back (`StoredWorkflowRun`); within a run the
 * stage types write it, so reading it again is a plain lookup.
 */
export function readBoard(blackboard: Blackboard | Readonly<Record<string, unknown>>): PipelineBoard {
  const raw =
    'get' in blackboard && typeof blackboard.get === 'function'
      ? (blackboard as Blackboard).get(PIPELINE_BOARD_KEY)
      : (blackboard as Record<string, unknown>)[PIPELINE_BOARD_KEY];
  if (raw === undefined)
    throw new Error('This run has no pipeline board: the pipeline stage types need a run started by runDeepWork.');
  return raw as PipelineBoard;
}

/** The stage type that runs each pipeline stage, as workflows name it. */
export const STAGE_TYPES: Readonly<Record<PipelineStage, string>> = {
  discovery: 'discovery-stage',
  planning: 'planning-stage',
  tickets: 'ticket-stage',
};

/** The stage a phase runs (the first stage type among its subagents), if any. */
export function stageOfPhase(workflow: WorkflowDefinition, phaseId: string | null): PipelineStage | null {
  const phase = workflow.phases.find(candidate => candidate.id === phaseId);
  if (!phase) return null;
  const { agents } = phase;
  const types =
    agents.behavior === 'main-only'
      ? []
      : (agents.mode === 'adaptive' ? agents.always : agents.subagents).map(spec => spec.type);
  return PIPELINE_STAGES.find(stage => types.includes(STAGE_TYPES[stage])) ?? null;
}

/**
 * The pipeline's view of a workflow run (what the plan report, the chat summaries and the request forecast read):
 * the board's records, with the next stage, skipped stages, passes, route-backs, requests and the handoff audit taken
 * from the workflow state (the engine counts them; the board keeps only what the stages produced).
 */
export function pipelineRunStateOf(workflow: WorkflowDefinition, state: WorkflowRunState): PipelineRunState {
  const board = readBoard(state.blackboard);
  const next = state.nextPhase === null ? null : stageOfPhase(workflow, state.nextPhase);
  const skipped = state.context.skip_phases.flatMap(id => {
    const stage = stageOfPhase(workflow, id);
    return stage && !board.stages[stage] ? [stage] : [];
  });
  // The engine counts each phase's passes and requests and keeps its audit; a stage is run by one phase.
  const audit: PipelineRunState['audit'] = {};
  const phases: PipelineRunState['phases'] = [];
  for (const phase of workflow.phases) {
    const stage = stageOfPhase(workflow, phase.id);
    const tally = state.phaseTallies[phase.id];
    if (!stage || !tally) continue;
    const passes = state.context.phases.iteration_counts[phase.id] ?? 0;
    phases.push({ stage, status: phaseStatus(state, phase.id), passes, modelRequests: phaseRequests(state, phase.id) });
    if (tally.audit) audit[stage] = tally.audit;
  }
  const view: PipelineRunState = {
    stateVersion: 1,
    runId: state.runId,
    goal: board.goal,
    constraints: board.constraints,
    rootContextId: board.rootContextId,
    nextSequence: board.nextSequence,
    knownContextIds: board.knownContextIds,
    stages: board.stages,
    nextStage: next,
    skipped: [...new Set(skipped)],
    routeBacks: state.routeBacks,
    phases,
    audit,
    startedAt: state.context.workflow.started_at,
    updatedAt: state.updatedAt,
  };
  return view;
}
