import { z } from 'zod';
import { PIPELINE_STAGES, PipelineStage } from '../plan/schemas/agentType';
import { PipelineRunState } from '../plan/run/runState';
import {
  readStored,
  type Migration,
  type StoredFormat,
  type StoredRead,
  type StoredRecord,
} from '../storage/versioned';
import { WorkflowRunState, type PendingCheckpoint } from '../workflow/engine/workflowRunState';
import { PIPELINE_BOARD_KEY, PipelineBoard } from '../plan/pipelineBoard';

/** The storage format version this code writes for a workflow run (`/plan` runs included). */
const STORED_WORKFLOW_RUN_VERSION = 2;

/** Where a run stands, as the chat shows it. */
export const WorkflowRunStatus = z.enum([
  'running',
  'paused',
  'completed',
  'aborted',
  'cancelled',
  'needs_user',
  /** Stored by builds before the handoff audit: a handoff that stayed invalid after its repairs. Read as failed. */
  'rejected',
  'failed',
]);
/** Where a run stands, as the chat shows it. */
export type WorkflowRunStatus = z.infer<typeof WorkflowRunStatus>;

/** The built-in plan workflow's source, as runs stored before workflows name it. */
const PLAN_SOURCE = 'built-in workflows/plan.yaml';

/** A `/plan` run as format 1 stored it: the pipeline's state with its own log of passes. */
const FormatOnePlanRun = PipelineRunState.omit({ phases: true, audit: true }).extend({
  phases: z.array(z.object({ stage: PipelineStage, modelCalls: z.number().int().min(0) })),
  routeBackFeedback: z.object({ stage: PipelineStage, message: z.string() }).optional(),
});

/**
 * Format 1 stored a `/plan` run as the pipeline's own state (before `/plan` ran through the workflow engine).
 * It becomes a `plan` workflow run: the stage records move to the blackboard, the pipeline's next stage and
 * skipped stages become the next phase and `skip_phases` (plan's phases are named after its stages).
 */
function workflowStateFromPipeline(raw: unknown, requestsUsed: number, paused: boolean): WorkflowRunState {
  const state = FormatOnePlanRun.parse(raw);
  const last = [...PIPELINE_STAGES].reverse().find(stage => state.stages[stage]);
  const passes = (stage: string) => state.phases.filter(phase => phase.stage === stage).length;
  const completed = PIPELINE_STAGES.filter(stage => state.stages[stage]);
  return WorkflowRunState.parse({
    stateVersion: 1,
    runId: state.runId,
    workflowSource: PLAN_SOURCE,
    context: {
      workflow: { name: 'plan', started_at: state.startedAt, execution_mode: 'strict' },
      feature: { name: 'plan', flags: [] },
      goal: state.goal,
      output_dir: `.council/runs/${state.runId}`,
      phases: {
        current: null,
        completed,
        iteration_counts: Object.fromEntries(
          PIPELINE_STAGES.map(stage => [stage, passes(stage)]).filter(([, count]) => count),
        ),
      },
      subagents_spawned: completed.length,
      deliverables: [],
      checkpoints: [],
      skip_phases: state.skipped,
      gap_checks: [],
    },
    nextPhase: state.nextStage,
    // A run paused at a checkpoint waits there again, with the buttons the plan workflow's checkpoints have.
    ...(paused && last && state.nextStage !== null ? { pendingCheckpoint: planCheckpoint(last) } : {}),
    ...(state.routeBackFeedback
      ? { feedback: { forPhase: state.routeBackFeedback.stage, text: state.routeBackFeedback.message } }
      : {}),
    phaseTallies: Object.fromEntries(
      PIPELINE_STAGES.map(stage => [
        stage,
        {
          status: state.stages[stage] ? 'completed' : state.skipped.includes(stage) ? 'skipped' : 'pending',
          subagents_spawned: state.stages[stage] ? 1 : 0,
          model_requests: state.phases
            .filter(phase => phase.stage === stage)
            .reduce((sum, phase) => sum + phase.modelCalls, 0),
        },
      ]),
    ),
    routeBacks: state.routeBacks,
    ...(state.nextStage === null ? { completedAt: state.updatedAt } : {}),
    requestsUsed,
    blackboard: {
      [PIPELINE_BOARD_KEY]: {
        goal: state.goal,
        constraints: state.constraints,
        rootContextId: state.rootContextId,
        nextSequence: state.nextSequence,
        knownContextIds: state.knownContextIds,
        stages: state.stages,
      },
    },
    updatedAt: state.updatedAt,
  });
}

/** The checkpoint after `stage` as `workflows/plan.yaml` defines it (Continue, Redo stage, Skip next stage, Abort). */
function planCheckpoint(stage: PipelineStage): PendingCheckpoint {
  const later = PIPELINE_STAGES.slice(PIPELINE_STAGES.indexOf(stage) + 1);
  return {
    phase: stage,
    origin: 'checkpoint',
    prompt: `${stage[0]?.toUpperCase()}${stage.slice(1)} is done.`,
    files: [],
    options: [
      { label: 'Continue', withFeedback: false, onSelect: { action: 'continue' } },
      { label: 'Redo stage', withFeedback: true, onSelect: { action: 'repeat_phase', target: stage } },
      { label: 'Skip next stage', withFeedback: false, onSelect: { action: 'skip_phases', phases: later } },
      { label: 'Abort', withFeedback: false, onSelect: { action: 'abort' } },
    ],
  };
}

/** Upgrades from each older stored-run format, one step per version. */
const STORED_WORKFLOW_RUN_MIGRATIONS: readonly Migration[] = [
  {
    from: 1,
    description: 'A /plan run stored as the pipeline state becomes a run of the built-in `plan` workflow.',
    migrate: (record: StoredRecord) => {
      const requestsUsed = typeof record.requestsUsed === 'number' ? record.requestsUsed : 0;
      const { requestsUsed: _moved, ...rest } = record;
      return {
        ...rest,
        workflow: 'plan',
        state: workflowStateFromPipeline(record.state, requestsUsed, record.status === 'paused'),
      };
    },
  },
];

/** One stored run: its resumable state, status, and the last message shown. */
export const StoredWorkflowRun = z.object({
  version: z.literal(STORED_WORKFLOW_RUN_VERSION),
  /** The workflow's name (`plan` for `/plan`). */
  workflow: z.string(),
  /** The run state has its own `stateVersion`; this version covers the whole record around it. */
  state: WorkflowRunState.superRefine((state, ctx) => {
    // The pipeline stages' records are opaque to the engine; they are checked here, once, when a run is read back.
    const board = state.blackboard[PIPELINE_BOARD_KEY];
    if (board === undefined) return;
    const checked = PipelineBoard.safeParse(board);
    if (!checked.success) {
      for (const issue of checked.error.issues)
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: ['blackboard', PIPELINE_BOARD_KEY, ...issue.path],
        });
    }
  }),
  status: WorkflowRunStatus,
  updatedAt: z.string(),
  /** The last user-facing message (question, rejection or failure), if any. */
  message: z.string().optional(),
});
/** One stored run. */
export type StoredWorkflowRun = z.infer<typeof StoredWorkflowRun>;

/** How a workflow run is stored in workspace storage. */
export const STORED_WORKFLOW_RUN_FORMAT: StoredFormat<StoredWorkflowRun> = {
  noun: 'workflow run',
  current: STORED_WORKFLOW_RUN_VERSION,
  migrations: STORED_WORKFLOW_RUN_MIGRATIONS,
  schema: StoredWorkflowRun,
  resume: 'resume it',
  startOver: 'start a new run with `/plan <goal>` or `/workflow <name> <goal>`',
};

/** The record to store for a run in its current format. */
export function storeWorkflowRun(
  state: WorkflowRunState,
  status: WorkflowRunStatus,
  updatedAt: string,
  message?: string,
): StoredWorkflowRun {
  return {
    version: STORED_WORKFLOW_RUN_VERSION,
    workflow: state.context.workflow.name,
    state,
    status,
    updatedAt,
    ...(message ? { message } : {}),
  };
}

/** Migrates and validates a stored run. */
export function readStoredWorkflowRun(raw: unknown): StoredRead<StoredWorkflowRun> {
  return readStored(STORED_WORKFLOW_RUN_FORMAT, raw);
}
