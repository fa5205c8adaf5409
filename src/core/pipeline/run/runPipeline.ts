import type { Clock, IdSource } from '../../clock';
import type { CancellationSignal, LanguageModel } from '../../llm/languageModel';
import type { UsageMeter } from '../../llm/usage';
import { PromptContributorRegistry } from '../contributors/registry';
import { toolGuidanceContributor } from '../contributors/toolGuidance';
import type { BlackboardHistory } from '../history/blackboardHistory';
import { PIPELINE_STAGES, type PipelineStage } from '../schemas/agentType';
import { ContextIdIssuer } from '../stages/contextIdIssuer';
import type { DiscoveryStageRecord } from '../stages/discovery/discoveryStageRecord';
import { runDiscoveryStage } from '../stages/discovery/discoveryStage';
import { ForkedMeter } from '../stages/forkedMeter';
import { DEFAULT_PIPELINE_OPTIONS, type PipelineOptions } from '../stages/pipelineOptions';
import type { PlanningStageRecord } from '../stages/planning/planningStageRecord';
import { runPlanningStage } from '../stages/planning/planningStage';
import type { ProgressListener } from '../stages/progressEvents';
import { createStageContracts } from '../stages/stageContracts';
import type { StageEnvironment } from '../stages/stageEnvironment';
import type { TicketStageRecord } from '../stages/tickets/ticketStageRecord';
import { runTicketStage } from '../stages/tickets/ticketStage';
import { indexWorkspace } from '../workspace/workspaceIndex';
import type { WorkspaceReader } from '../workspace/workspaceReader';
import { WORKSPACE_TOOLS } from '../workspace/workspaceTools';
import { outcomeOfError, type PipelineRunOutcome } from './runOutcome';
import { PipelineRunState, type PhaseRecord } from './runState';

/** A completed stage's record. */
export type StageRecord = DiscoveryStageRecord | PlanningStageRecord | TicketStageRecord;

/** What the caller decides at a checkpoint between stages. */
export type CheckpointAnswer = 'continue' | 'redo' | 'skipNext' | 'abort';

/** What the checkpoint callback is shown: the stage just completed and the (already saved) state. */
export interface StageCheckpoint {
  readonly stage: PipelineStage;
  readonly record: StageRecord;
  readonly state: PipelineRunState;
}

/** Inputs of {@link runPipeline}. */
export interface PipelineRunRequest {
  readonly goal: string;
  readonly constraints?: readonly string[];
  readonly model: LanguageModel;
  readonly reader: WorkspaceReader;
  /** The run's blackboard; its runId (`wf-{uuid}`) is the run's id. */
  readonly history: BlackboardHistory;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly token: CancellationSignal;
  readonly usage?: UsageMeter;
  /** Agents running at once within a stage (default 3). */
  readonly concurrency?: number;
  readonly onProgress?: ProgressListener;
  /** Called after each completed stage; default 'continue'. */
  readonly checkpoint?: (checkpoint: StageCheckpoint) => Promise<CheckpointAnswer>;
  /** Defaults to tool guidance only; the VS Code layer adds workspace facts and episodic memory. */
  readonly contributors?: PromptContributorRegistry;
  readonly options?: Partial<PipelineOptions>;
  /** A state from an earlier call: the run continues from its next stage. */
  readonly resume?: PipelineRunState;
}

function defaultContributors(): PromptContributorRegistry {
  return new PromptContributorRegistry().register(
    toolGuidanceContributor(() => WORKSPACE_TOOLS.map(tool => ({ name: tool.definition.name, description: tool.definition.description }))),
  );
}

function stageAfter(stage: PipelineStage): PipelineStage | null {
  return PIPELINE_STAGES[PIPELINE_STAGES.indexOf(stage) + 1] ?? null;
}

/** The state without `from` and every later stage's record. */
function withoutStagesFrom(state: PipelineRunState, from: PipelineStage): PipelineRunState['stages'] {
  const keep = PIPELINE_STAGES.slice(0, PIPELINE_STAGES.indexOf(from));
  return Object.fromEntries(Object.entries(state.stages).filter(([stage]) => (keep as readonly string[]).includes(stage)));
}

function runStage(env: StageEnvironment, state: PipelineRunState, stage: PipelineStage): Promise<StageRecord> {
  const feedback = state.routeBackFeedback?.stage === stage ? state.routeBackFeedback.message : undefined;
  const { discovery, planning } = state.stages;
  switch (stage) {
    case 'discovery':
      return runDiscoveryStage(env, feedback);
    case 'planning':
      if (!discovery) throw new Error('Planning needs a completed discovery stage.');
      return runPlanningStage(env, discovery.result.discoveryCuration, discovery.handoffId, feedback);
    case 'tickets':
      if (!discovery || !planning) throw new Error('Tickets need completed discovery and planning stages.');
      return runTicketStage(env, { discovery: discovery.result.discoveryCuration, planning: planning.result.planningCuration }, planning.handoffId);
  }
}

/**
 * Runs (or resumes) the pipeline discovery -> planning -> tickets. Every agent invocation is recorded on the
 * blackboard; a degenerate loop goes to the context manager. After each stage the state is saved and the
 * checkpoint decides what happens next. Known failures come back as outcomes, each with a resumable state
 * at the last completed stage; nothing is ever applied to the workspace.
 */
export async function runPipeline(request: PipelineRunRequest): Promise<PipelineRunOutcome> {
  const { clock, history } = request;
  const options: PipelineOptions = { ...DEFAULT_PIPELINE_OPTIONS, ...request.options, ...(request.concurrency === undefined ? {} : { concurrency: request.concurrency }) };
  const onProgress = request.onProgress ?? (() => {});
  const runId = request.resume?.runId ?? history.runId;
  if (runId !== history.runId) throw new Error(`The state belongs to run ${runId}, but the history to ${history.runId}.`);
  const contextIds = new ContextIdIssuer(runId, clock, request.resume?.nextSequence ?? 1);
  let state: PipelineRunState = request.resume
    ? PipelineRunState.parse(request.resume)
    : (() => {
        const rootContextId = contextIds.issue('orchestrator');
        const now = clock.now();
        return PipelineRunState.parse({
          stateVersion: 1,
          runId,
          goal: request.goal,
          constraints: [...(request.constraints ?? [])],
          rootContextId,
          nextSequence: contextIds.nextSequence,
          knownContextIds: [rootContextId],
          stages: {},
          nextStage: 'discovery',
          skipped: [],
          routeBacks: 0,
          phases: [],
          startedAt: now,
          updatedAt: now,
        });
      })();

  let index: Awaited<ReturnType<typeof indexWorkspace>>;
  try {
    index = await indexWorkspace(request.reader, undefined, request.token);
  } catch (error) {
    return outcomeOfError(error, state);
  }
  const knownContextIds = new Set(state.knownContextIds);
  const shared = {
    goal: state.goal,
    constraints: state.constraints,
    rootContextId: state.rootContextId,
    model: request.model,
    reader: request.reader,
    index,
    history,
    clock,
    ids: request.ids,
    token: request.token,
    contracts: createStageContracts(index.visiblePaths),
    contributors: request.contributors ?? defaultContributors(),
    contextIds,
    knownContextIds,
    options,
    onProgress,
  };
  const save = (changes: Partial<PipelineRunState>): PipelineRunState =>
    PipelineRunState.parse({ ...state, ...changes, nextSequence: contextIds.nextSequence, knownContextIds: [...knownContextIds], updatedAt: clock.now() });

  while (state.nextStage !== null) {
    const stage: PipelineStage = state.nextStage;
    const meter = new ForkedMeter(request.usage);
    const startedAt = clock.now();
    const phase = (outcome: PhaseRecord['outcome'], agentsSpawned: number): PhaseRecord => {
      const endedAt = clock.now();
      return {
        stage,
        startedAt,
        endedAt,
        durationMs: Math.max(0, Date.parse(endedAt) - Date.parse(startedAt)),
        agentsSpawned,
        modelCalls: meter.tally.calls,
        promptTokens: meter.tally.promptTokens,
        outcome,
      };
    };
    onProgress({ kind: 'stage-started', stage });
    let record: StageRecord;
    try {
      record = await runStage({ ...shared, usage: meter }, state, stage);
    } catch (error) {
      // The state stays at the last completed stage; only the id sequence moves on, so ids are never reused.
      return outcomeOfError(error, { ...state, nextSequence: contextIds.nextSequence });
    }
    const { decision } = record.result;
    if (decision.kind === 'route_back') {
      if (state.routeBacks < options.maxRouteBacks) {
        onProgress({ kind: 'route-back', from: stage, to: decision.target, rationale: decision.rationale });
        state = save({
          stages: withoutStagesFrom(state, decision.target),
          nextStage: decision.target,
          routeBacks: state.routeBacks + 1,
          routeBackFeedback: { stage: decision.target, message: decision.rationale },
          phases: [...state.phases, phase('routed_back', record.agentsSpawned)],
        });
        continue;
      }
      onProgress({ kind: 'limit-reached', stage, message: `Route-back to ${decision.target} refused: at most ${options.maxRouteBacks} per run.` });
    }
    if (state.routeBackFeedback?.stage === stage) {
      // The feedback was for this pass; a later redo starts clean.
      const { routeBackFeedback: _used, ...rest } = state;
      state = rest;
    }
    state = save({
      stages: { ...state.stages, [stage]: record },
      nextStage: stageAfter(stage),
      phases: [...state.phases, phase('advanced', record.agentsSpawned)],
    });
    onProgress({ kind: 'stage-completed', stage });
    const answer = request.checkpoint ? await request.checkpoint({ stage, record, state }) : 'continue';
    if (answer === 'abort') return { status: 'aborted', state };
    if (answer === 'redo') state = save({ stages: withoutStagesFrom(state, stage), nextStage: stage });
    if (answer === 'skipNext' && state.nextStage !== null) {
      // Every later stage needs the one before it, so skipping the next stage finishes the run here.
      state = save({ nextStage: null, skipped: PIPELINE_STAGES.slice(PIPELINE_STAGES.indexOf(state.nextStage)) });
    }
  }
  return { status: 'completed', state };
}
