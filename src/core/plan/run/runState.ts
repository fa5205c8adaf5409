import { z } from 'zod';
import { PipelineStage } from '../schemas/agentType';
import { ContextId } from '../schemas/contextId';
import { AgentAudit, PhaseStatus } from '../../workflow/engine/workflowRunState';
import { DiscoveryStageRecord, PlanningStageRecord, TicketStageRecord } from '../stages/stageRecords';

/** A stage's phase as the engine counted it: its passes and requests over the run (the engine counts them once). */
const StagePasses = z.object({
  stage: PipelineStage,
  status: PhaseStatus,
  passes: z.number().int().min(0),
  modelRequests: z.number().int().min(0),
});
export type StagePasses = z.infer<typeof StagePasses>;

/**
 * The pipeline's view of a workflow run: the stages' records (kept on the engine's blackboard) with what the engine
 * counted (passes, route-backs, requests, the audit). Plain JSON; `/plan` runs stored before the engine (format 1)
 * were this state, with their own per-pass log.
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
  phases: z.array(StagePasses),
  /** What the handoff audit read and found per stage over all its passes (the engine keeps it with the phase). */
  audit: z.partialRecord(PipelineStage, AgentAudit).default({}),
  startedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
/** The serialisable state of a pipeline run. */
export type PipelineRunState = z.infer<typeof PipelineRunState>;
