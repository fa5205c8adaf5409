import { MAX_REPAIRS_PER_REPLY } from '../../llm/repairBudget';
import { DEFAULT_EXPLORATION_LIMITS, type ExplorationLimits } from '../../workspace/explorationLoop';
import { DEFAULT_WORKSPACE_TOOL_LIMITS, type WorkspaceToolLimits } from '../../workspace/workspaceTools';

/** Tunable bounds of a pipeline run. */
export interface PipelineOptions {
  /** Most discovery / planning agents an orchestrator spawns. */
  readonly maxAgentsPerStage: number;
  /** Agents running at once within a stage. */
  readonly concurrency: number;
  /** Repairs of a malformed reply, in its one repair loop (the handoff audit repairs nothing). */
  readonly maxRepairs: number;
  /**
   * Identical consecutive invocations of one agent allowed before it counts as a degenerate loop: the one bound on an
   * agent repeating its request (the collector's reruns stop at it, after the context manager's one recovery).
   */
  readonly loopThreshold: number;
  readonly discoveryExploration: ExplorationLimits;
  readonly ticketExploration: ExplorationLimits;
  readonly toolLimits: WorkspaceToolLimits;
}

/** Defaults: three agents at a time, two repairs, two reruns (a third identical attempt is a loop). */
export const DEFAULT_PIPELINE_OPTIONS: PipelineOptions = {
  maxAgentsPerStage: 3,
  concurrency: 3,
  maxRepairs: MAX_REPAIRS_PER_REPLY,
  loopThreshold: 2,
  discoveryExploration: DEFAULT_EXPLORATION_LIMITS,
  ticketExploration: { ...DEFAULT_EXPLORATION_LIMITS, maxRounds: 2 },
  toolLimits: DEFAULT_WORKSPACE_TOOL_LIMITS,
};
