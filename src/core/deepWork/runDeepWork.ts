import type { Clock, IdSource } from '../clock';
import type { CancellationSignal, LanguageModel } from '../llm/languageModel';
import { PromptContributorRegistry } from '../plan/contributors/registry';
import { toolGuidanceContributor } from '../plan/contributors/toolGuidance';
import { ContextIdIssuer } from '../plan/stages/contextIdIssuer';
import { DEFAULT_PIPELINE_OPTIONS, type PipelineOptions } from '../plan/stages/pipelineOptions';
import type { ProgressListener } from '../plan/stages/progressEvents';
import { indexWorkspace, type WorkspaceIndex } from '../workspace/workspaceIndex';
import type { WorkspaceReader } from '../workspace/workspaceReader';
import { WORKSPACE_TOOLS } from '../workspace/workspaceTools';
import type { WorkflowDefinition } from '../workflow/definition/workflowDefinition';
import { AgentTypeRegistry } from '../workflow/engine/agentTypes';
import { markdownAgentTypes, MARKDOWN_ROLES } from '../workflow/agents/markdownAgents';
import { optionFor, type CheckpointChoice, type CheckpointDecision } from '../workflow/engine/checkpoints';
import type { RunOutputs } from '../workflow/engine/runOutputs';
import { runWorkflow, type RunSpending, type WorkflowOutcome } from '../workflow/engine/runWorkflow';
import type { WorkflowProgress } from '../workflow/engine/workflowProgress';
import type { PendingCheckpoint, WorkflowRunState } from '../workflow/engine/workflowRunState';
import type { ScriptSandbox } from '../workflow/sandbox/scriptSandbox';
import type { ReadOnlyTools } from '../workflow/engine/skills';
import { PIPELINE_BOARD_KEY, readBoard, STAGE_TYPES, type PipelineBoard } from '../plan/pipelineBoard';
import { pipelineStageTypes } from '../plan/pipelineStageTypes';
import { phaseFloorOf } from './workflowForecast';

/** Inputs of {@link runDeepWork}. */
export interface DeepWorkRequest {
  /** The workflow to run (`plan` for `/plan`: built in, or the workspace's override). */
  readonly workflow: WorkflowDefinition;
  readonly model: LanguageModel;
  readonly reader: WorkspaceReader;
  /** The run's id (`wf-{uuid}`); a resumed run's must be its state's. */
  readonly runId: string;
  readonly outputs: RunOutputs;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly token: CancellationSignal;
  /** The run's budget and prices (one governor for every agent, stage and script of the run). */
  readonly spending?: RunSpending;
  readonly sandbox?: ScriptSandbox;
  readonly onProgress?: ProgressListener;
  readonly onWorkflowProgress?: (event: WorkflowProgress) => void;
  readonly onSave?: (state: WorkflowRunState) => Promise<void>;
  /** Answers a checkpoint now (`continue`, `redo`, `skip`, `abort`); undefined pauses the run there. */
  readonly checkpoint?: (pending: PendingCheckpoint, state: WorkflowRunState) => Promise<CheckpointChoice | undefined>;
  /** Defaults to tool guidance only; the VS Code layer adds workspace facts and episodic memory. */
  readonly contributors?: PromptContributorRegistry;
  readonly options?: Partial<PipelineOptions>;
  /** A new run's goal, constraints and feature flags. */
  readonly start?: {
    readonly goal: string;
    readonly constraints?: readonly string[];
    readonly flags?: readonly string[];
  };
  /** Read-only language-model tools skills may name. */
  readonly tools?: ReadOnlyTools;
  /** The model for a subagent's `config.model`. */
  readonly modelFor?: (name: string | undefined) => Promise<LanguageModel>;
  /** A saved run, and the decision for its pending checkpoint. */
  readonly resume?: { readonly state: WorkflowRunState; readonly decision?: CheckpointDecision };
}

function defaultContributors(): PromptContributorRegistry {
  return new PromptContributorRegistry().register(
    toolGuidanceContributor(() =>
      WORKSPACE_TOOLS.map(tool => ({ name: tool.definition.name, description: tool.definition.description })),
    ),
  );
}

/** The board a new run starts with: the goal, and the run's root context id (sequence 1). */
function newBoard(runId: string, clock: Clock, goal: string, constraints: readonly string[]): PipelineBoard {
  const rootContextId = new ContextIdIssuer(runId, clock, 1).issue('orchestrator');
  return {
    goal,
    constraints: [...constraints],
    rootContextId,
    nextSequence: 2,
    knownContextIds: [rootContextId],
    stages: {},
  };
}

/** A saved plan run with the user's answer to a `needs_user` question added to the constraints. */
export function withUserAnswer(state: WorkflowRunState, answer: string): WorkflowRunState {
  const text = answer.trim();
  if (!text) return state;
  const board = readBoard(state.blackboard);
  return {
    ...state,
    blackboard: {
      ...state.blackboard,
      [PIPELINE_BOARD_KEY]: { ...board, constraints: [...board.constraints, `The user answered: ${text}`] },
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
  const { clock, runId, workflow } = request;
  const options: PipelineOptions = { ...DEFAULT_PIPELINE_OPTIONS, ...request.options };
  if (request.resume && request.resume.state.runId !== runId)
    throw new Error(`The state belongs to run ${request.resume.state.runId}, not to run ${runId}.`);
  // The workspace is listed once per call, and only when an agent first needs it (a workflow of scripts and
  // writers never does).
  let listed: Promise<WorkspaceIndex> | undefined;
  const workspace = (): Promise<WorkspaceIndex> =>
    (listed ??= indexWorkspace(request.reader, undefined, request.token));
  const agents = new AgentTypeRegistry([
    ...markdownAgentTypes(workspace),
    ...pipelineStageTypes({
      runId,
      workspace,
      clock,
      ids: request.ids,
      contributors: request.contributors ?? defaultContributors(),
      options,
      onProgress: request.onProgress ?? (() => {}),
    }),
  ]);
  const goal = request.start?.goal ?? '';
  const resume = request.resume;
  return runWorkflow({
    workflow,
    agents,
    ...(request.sandbox ? { sandbox: request.sandbox } : {}),
    model: request.model,
    ...(request.modelFor ? { modelFor: request.modelFor } : {}),
    ...(request.tools ? { tools: request.tools } : {}),
    reader: request.reader,
    outputs: request.outputs,
    clock,
    token: request.token,
    // Every phase (stage) is checked against the run's credit limit before it starts, at its fewest requests.
    ...(request.spending ? { spending: { phaseFloor: phaseFloorOf(workflow), ...request.spending } } : {}),
    // Stages run their own agents in parallel; the phases' agents run at the pipeline's concurrency.
    limits: { concurrency: options.concurrency },
    ...(request.onWorkflowProgress ? { onProgress: request.onWorkflowProgress } : {}),
    ...(request.onSave ? { onSave: request.onSave } : {}),
    checkpoint: async (pending, state) => {
      const choice = await request.checkpoint?.(pending, state);
      return choice ? optionFor(pending, choice) : undefined;
    },
    ...(resume
      ? { resume }
      : {
          start: {
            runId,
            goal,
            flags: request.start?.flags ?? [],
            blackboard: { [PIPELINE_BOARD_KEY]: newBoard(runId, clock, goal, request.start?.constraints ?? []) },
          },
        }),
  });
}
