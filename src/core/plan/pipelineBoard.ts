import { z } from 'zod';
import { PIPELINE_STAGES, type PipelineStage } from './schemas/agentType';
import { ContextId } from './schemas/contextId';
import { ReconstructedContext } from './contextManager/routing';
import { DiscoveryStageRecord, PlanningStageRecord, TicketStageRecord } from './stages/stageRecords';
import { ContextIdIssuer } from './stages/contextIdIssuer';
import type { Clock } from '../clock';
import type { PhaseDefinition, WorkflowDefinition } from '../workflow/definition/workflowDefinition';
import type { WorkflowRunState } from '../workflow/engine/workflowRunState';

/** The blackboard key the pipeline stage types keep their records under. */
export const PIPELINE_BOARD_KEY = 'pipeline';

/**
 * What the pipeline stages share across phases (spec 000's run bookkeeping): the typed part of a `/plan` run's
 * state that is the stages' own, kept on its blackboard. Where the run goes next, its passes, route-backs, requests
 * and handoff audit are the engine's (`WorkflowRunState`), counted once there.
 */
export const PipelineBoard = z.object({
  goal: z.string().min(1),
  constraints: z.array(z.string()),
  rootContextId: ContextId,
  /** Next context-id sequence number, so a resumed run never reuses one. */
  nextSequence: z.number().int().min(1),
  stages: z.object({
    discovery: DiscoveryStageRecord.optional(),
    planning: PlanningStageRecord.optional(),
    tickets: TicketStageRecord.optional(),
  }),
  /**
   * A context the context manager routed to another stage's agents (spec 001: `proceed` to the next stage, or a
   * route-back to an earlier one), given to that stage's agents when it runs next; any stage that runs consumes it.
   */
  handoff: z.object({ stage: z.enum(PIPELINE_STAGES), context: ReconstructedContext }).optional(),
});
export type PipelineBoard = z.infer<typeof PipelineBoard>;

/**
 * The board of a run. It is validated once, when a stored run is read back (`StoredWorkflowRun`); within a run the
 * stage types write it, so reading it again is a plain lookup.
 */
/** A new board: the goal, and the run's root context id (sequence 1). */
export function newBoard(runId: string, clock: Clock, goal: string, constraints: readonly string[]): PipelineBoard {
  const rootContextId = new ContextIdIssuer(runId, clock, 1).issue('orchestrator');
  return { goal, constraints: [...constraints], rootContextId, nextSequence: 2, stages: {} };
}

/** The run's board, or undefined for a run that has none (a workflow run no pipeline stage has run in). */
export function boardOf(blackboard: Readonly<Record<string, unknown>>): PipelineBoard | undefined {
  return PIPELINE_BOARD_KEY in blackboard ? readBoard(blackboard) : undefined;
}

export function readBoard(blackboard: Readonly<Record<string, unknown>>): PipelineBoard {
  const raw = blackboard[PIPELINE_BOARD_KEY];
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

/** The subagent types a phase names (an adaptive phase's fixed ones; none for a main-only phase). */
export function phaseAgentTypes({ agents }: PhaseDefinition): string[] {
  if (agents.behavior === 'main-only') return [];
  return (agents.mode === 'adaptive' ? agents.always : agents.subagents).map(spec => spec.type);
}

/** The stage a phase runs (the first stage type among its subagents), if any. */
export function stageOfPhase(workflow: WorkflowDefinition, phaseId: string | null): PipelineStage | null {
  const phase = workflow.phases.find(candidate => candidate.id === phaseId);
  if (!phase) return null;
  const types = phaseAgentTypes(phase);
  return PIPELINE_STAGES.find(stage => types.includes(STAGE_TYPES[stage])) ?? null;
}

/** The stages a run skipped at a checkpoint (those of its skipped phases that never completed). */
export function skippedStages(workflow: WorkflowDefinition, state: WorkflowRunState): PipelineStage[] {
  const { stages } = readBoard(state.blackboard);
  const skipped = state.context.skip_phases.flatMap(id => {
    const stage = stageOfPhase(workflow, id);
    return stage && !stages[stage] ? [stage] : [];
  });
  return [...new Set(skipped)];
}

/** The stage the run completed last (the one a paused run's checkpoint was about), if any. */
export function lastCompletedStage(board: PipelineBoard): PipelineStage | undefined {
  return [...PIPELINE_STAGES].reverse().find(stage => board.stages[stage] !== undefined);
}
