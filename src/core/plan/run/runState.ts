import { z } from 'zod';
import { PipelineStage } from '../schemas/agentType';
import { ContextId } from '../schemas/contextId';
import { AgentAudit } from '../../workflow/engine/workflowRunState';
import { DiscoveryStageRecord, PlanningStageRecord, TicketStageRecord } from '../stages/stageRecords';

/** One pass through a stage, for the run metadata. */
export const PhaseRecord = z.object({
  stage: PipelineStage,
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime(),
  durationMs: z.number().min(0),
  agentsSpawned: z.number().int().min(0),
  modelCalls: z.number().int().min(0),
  promptTokens: z.number().int().min(0),
  outcome: z.enum(['advanced', 'routed_back', 'redo', 'failed', 'cancelled', 'needs_user']),
});
/** One pass through a stage. */
export type PhaseRecord = z.infer<typeof PhaseRecord>;

/**
 * Everything needed to continue a run from its last completed stage; plain JSON, validated on the way back in.
 * Written after every stage, so a cancelled or failed stage leaves the previous one's state.
 */
export const PipelineRunState = z.object({
  stateVersion: z.literal(1),
  runId: z.string().regex(/^wf-[0-9a-fA-F-]{36}$/),
  goal: z.string().min(1),
  constraints: z.array(z.string()),
  rootContextId: ContextId,
  /** Next context-id sequence number, so a resumed run never reuses one. */
  nextSequence: z.number().int().min(1),
  knownContextIds: z.array(z.string()),
  stages: z.object({
    discovery: DiscoveryStageRecord.optional(),
    planning: PlanningStageRecord.optional(),
    tickets: TicketStageRecord.optional(),
  }),
  /** The stage to run next; null once the run is finished. */
  nextStage: PipelineStage.nullable(),
  skipped: z.array(PipelineStage),
  routeBacks: z.number().int().min(0),
  /** Why a later stage sent the run back, for the stage that reruns. */
  routeBackFeedback: z.object({ stage: PipelineStage, message: z.string() }).optional(),
  phases: z.array(PhaseRecord),
  /** What the handoff audit read and found per stage over all its passes (the engine keeps it with the phase). */
  audit: z.partialRecord(PipelineStage, AgentAudit).default({}),
  startedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
/** The serialisable state of a pipeline run. */
export type PipelineRunState = z.infer<typeof PipelineRunState>;
