import { z } from 'zod';
import { PlanningCollectorResult } from '../../schemas/collectors';
import { DelegationTemplate } from '../../schemas/delegation';
import { PlanningAgentResult } from '../../schemas/planning';

/** A completed planning stage as the run state keeps it. */
export const PlanningStageRecord = z.object({
  stage: z.literal('planning'),
  delegation: DelegationTemplate,
  agentResults: z.array(PlanningAgentResult),
  result: PlanningCollectorResult,
  handoffId: z.string().min(1),
  rounds: z.number().int().min(1),
  agentsSpawned: z.number().int().min(0),
});
/** A completed planning stage. */
export type PlanningStageRecord = z.infer<typeof PlanningStageRecord>;
