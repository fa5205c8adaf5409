import type { AgentType, PipelineStage } from '../schemas/agentType';
import type { DelegationTemplate } from '../schemas/delegation';
import type { RerunnableAgent } from './previousAttempt';

/**
 * What a stage's agents and its collector both work in: their roles, the delegation they answer, and the contexts
 * the stage builds on.
 */
export interface StageFrame {
  readonly stage: PipelineStage;
  readonly agentType: RerunnableAgent;
  readonly collectorType: AgentType;
  readonly delegation: DelegationTemplate;
  /** Curated context ids of the stages before (discovery's, then planning's); the run's root precedes them. */
  readonly upstream: readonly string[];
}
