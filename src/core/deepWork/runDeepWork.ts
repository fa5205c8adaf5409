import type { IdSource } from '../clock';
import { PromptContributorRegistry } from '../plan/contributors/registry';
import { toolGuidanceContributor } from '../plan/contributors/toolGuidance';
import { DEFAULT_PIPELINE_OPTIONS, STAGE_CONCURRENCY, type PipelineOptions } from '../plan/stages/pipelineOptions';
import type { ProgressListener } from '../plan/stages/progressEvents';
import { indexWorkspace, type WorkspaceIndex } from '../workspace/workspaceIndex';
import { WORKSPACE_TOOLS } from '../workspace/workspaceTools';
import { agentTypeRegistry } from '../workflow/engine/agentTypes';
import { markdownAgentTypes, MARKDOWN_ROLES } from '../workflow/agents/markdownAgents';
import { runWorkflow, type WorkflowOutcome, type WorkflowRunRequest } from '../workflow/engine/runWorkflow';
import type { WorkflowProgress } from '../workflow/engine/workflowProgress';
import type { WorkflowRunState } from '../workflow/engine/workflowRunState';
import { boardOf, newBoard, PIPELINE_BOARD_KEY, STAGE_TYPES } from '../plan/pipelineBoard';
import { isPlanWorkflow } from './runHome';
import { pipelineStageTypes } from '../plan/pipelineStageTypes';
import { phaseFloorOf } from './workflowForecast';

/** Inputs of {@link runDeepWork}: the engine's, less what deep work composes (agents, limits, the new run's board). */
export interface DeepWorkRequest extends Omit<WorkflowRunRequest, 'agents' | 'limits' | 'onProgress' | 'start'> {
  /** The run's id (`wf-{uuid}`); a resumed run's must be its state's. */
  readonly runId: string;
  readonly ids: IdSource;
  readonly onProgress?: ProgressListener;
  readonly onWorkflowProgress?: (event: WorkflowProgress) => void;
  /** Defaults to tool guidance only; the VS Code layer adds workspace facts and episodic memory. */
  readonly contributors?: PromptContributorRegistry;
  readonly options?: Partial<PipelineOptions>;
  /** A new run's goal, constraints and feature flags. */
  readonly start?: {
    readonly goal: string;
    readonly constraints?: readonly string[];
    readonly flags?: readonly string[];
  };
}

export function defaultContributors(): PromptContributorRegistry {
  return new PromptContributorRegistry().register(
    toolGuidanceContributor(() => WORKSPACE_TOOLS.map(tool => tool.definition)),
  );
}

/** How a constraint that records the user's answer to a run's question begins. */
export const USER_ANSWER = 'The user answered:';

/**
 * A saved run with the user's answer to a `needs_user` question added to its board's constraints (a question comes
 * from a pipeline stage, so a run without a board has none to answer: it is returned as it is).
 */
export function withUserAnswer(state: WorkflowRunState, answer: string): WorkflowRunState {
  const text = answer.trim();
  const board = boardOf(state.blackboard);
  if (!text || !board) return state;
  return {
    ...state,
    blackboard: {
      ...state.blackboard,
      [PIPELINE_BOARD_KEY]: { ...board, constraints: [...board.constraints, `${USER_ANSWER} ${text}`] },
    },
  };
}

/** Every subagent type a workflow may name, for validating workflow files before a run. */
export const DEEP_WORK_AGENT_TYPES: ReadonlySet<string> = new Set([
  ...MARKDOWN_ROLES.map(role => role.type),
  ...Object.values(STAGE_TYPES),
]);

/**
 * Runs (or resumes) a workflow with Council's agent types: the generic Markdown agents and the pipeline's stages
 * (`/plan` is the built-in `plan` workflow: discovery -> planning -> tickets, each stage a subagent type). Every
 * pipeline agent invocation is recorded on the blackboard history; a degenerate loop goes to the context manager.
 * Known failures come back as outcomes with a resumable state; nothing is applied to the workspace.
 */
export async function runDeepWork(request: DeepWorkRequest): Promise<WorkflowOutcome> {
  const {
    runId,
    ids,
    spending,
    onProgress,
    onWorkflowProgress,
    contributors,
    options: tuning,
    start,
    ...engine
  } = request;
  const { clock, workflow, resume } = engine;
  const options: PipelineOptions = { ...DEFAULT_PIPELINE_OPTIONS, ...tuning };
  // The workspace is listed once per call, and only when an agent first needs it (a workflow of scripts and
  // writers never does).
  let listed: Promise<WorkspaceIndex> | undefined;
  const workspace = (): Promise<WorkspaceIndex> =>
    (listed ??= indexWorkspace(request.reader, undefined, request.token));
  const agents = agentTypeRegistry([
    ...markdownAgentTypes(workspace),
    ...pipelineStageTypes({
      runId,
      workspace,
      clock,
      ids,
      contributors: contributors ?? defaultContributors(),
      options,
      onProgress: onProgress ?? (() => {}),
    }),
  ]);
  const goal = start?.goal ?? '';
  return runWorkflow({
    ...engine,
    agents,
    // Every phase (stage) is checked against the run's credit limit before it starts, at its fewest requests.
    ...(spending ? { spending: { phaseFloor: phaseFloorOf(workflow), ...spending } } : {}),
    // Stages run their own agents in parallel; the phases' agents run at the pipeline's concurrency.
    limits: { concurrency: STAGE_CONCURRENCY },
    ...(onWorkflowProgress ? { onProgress: onWorkflowProgress } : {}),
    ...(resume
      ? {}
      : {
          start: {
            runId,
            goal,
            flags: start?.flags ?? [],
            // `/plan`'s board from the start; a generic run borrows none (a pipeline stage it spawns makes one).
            blackboard: isPlanWorkflow(workflow.name)
              ? { [PIPELINE_BOARD_KEY]: newBoard(runId, clock, goal, start?.constraints ?? []) }
              : {},
          },
        }),
  });
}
