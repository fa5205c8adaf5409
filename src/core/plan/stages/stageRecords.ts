import { z } from 'zod';
import type { PipelineStage } from '../schemas/agentType';
import { DiscoveryCollectorResult, PlanningCollectorResult, TicketCollectorResult } from '../schemas/collectors';
import { DelegationTemplate } from '../schemas/delegation';
import { DiscoveryReport } from '../schemas/discovery';
import { PlanningAgentResult } from '../schemas/planning';
import { TicketAgentResult } from '../schemas/tickets';

/**
 * A completed stage as the run state keeps it: its delegation, its agents' latest results (full, for the report;
 * downstream sees only the curation), the last consolidation and how the stage went.
 */
function stageRecord<const Stage extends PipelineStage, AgentResults extends z.ZodRawShape, Result extends z.ZodType>(
  stage: Stage,
  agentResults: AgentResults,
  result: Result,
) {
  return z.object({
    stage: z.literal(stage),
    delegation: DelegationTemplate,
    ...agentResults,
    result,
    rounds: z.number().int().min(1),
    agentsSpawned: z.number().int().min(0),
  });
}

/** A completed discovery stage; its agents' results are its reports. */
export const DiscoveryStageRecord = stageRecord(
  'discovery',
  { reports: z.array(DiscoveryReport) },
  DiscoveryCollectorResult,
);
export type DiscoveryStageRecord = z.infer<typeof DiscoveryStageRecord>;

export const PlanningStageRecord = stageRecord(
  'planning',
  { agentResults: z.array(PlanningAgentResult) },
  PlanningCollectorResult,
);
export type PlanningStageRecord = z.infer<typeof PlanningStageRecord>;

export const TicketStageRecord = stageRecord(
  'tickets',
  { agentResults: z.array(TicketAgentResult) },
  TicketCollectorResult,
);
export type TicketStageRecord = z.infer<typeof TicketStageRecord>;
