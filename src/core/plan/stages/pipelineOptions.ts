import { MAX_REPAIRS_PER_REPLY } from '../../llm/repairBudget';
import { DEFAULT_EXPLORATION_LIMITS, type ExplorationLimits } from '../../workspace/explorationLoop';

/** Agents running at once within a stage (and a phase's agents, in the engine). */
export const STAGE_CONCURRENCY = 3;

/** A ticket agent reads around the files its ticket names: fewer rounds than a discovery agent mapping its area. */
export const TICKET_EXPLORATION: ExplorationLimits = { ...DEFAULT_EXPLORATION_LIMITS, maxRounds: 2 };

/** Tunable bounds of a pipeline run. */
export interface PipelineOptions {
  /** Most discovery / planning agents an orchestrator spawns. */
  readonly maxAgentsPerStage: number;
  /** Repairs of a malformed reply, in its one repair loop (the handoff audit repairs nothing). */
  readonly maxRepairs: number;
  /**
   * Identical consecutive invocations of one agent allowed before it counts as a degenerate loop (spec 001) and goes to
   * the context manager. A detector, not a bound: the bounds on repetition are `REPETITION_BOUNDS`.
   */
  readonly loopThreshold: number;
}

/** Defaults: three agents, two repairs, a third identical attempt is a loop. */
export const DEFAULT_PIPELINE_OPTIONS: PipelineOptions = {
  maxAgentsPerStage: 3,
  maxRepairs: MAX_REPAIRS_PER_REPLY,
  loopThreshold: 2,
};
