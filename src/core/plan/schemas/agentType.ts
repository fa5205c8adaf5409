import { z } from 'zod';

/** Every agent role in the deep-work pipeline; also the `kind` of upstream and previous contexts. */
export const AGENT_TYPES = [
  'orchestrator',
  'orchestrator-collector',
  'discovery-orchestrator',
  'discovery-agent',
  'discovery-collector',
  'planning-orchestrator',
  'planning-agent',
  'planning-collector',
  'ticket-orchestrator',
  'ticket-agent',
  'ticket-collector',
  'review',
  'merger',
  'context-manager',
] as const;

/** The agents that delegate: the run's orchestrator and each stage's. */
export const ORCHESTRATORS = AGENT_TYPES.filter(type => type.endsWith('orchestrator'));

/** The role of an agent in the pipeline. */
export const AgentType = z.enum(AGENT_TYPES).describe('Role of an agent in the pipeline.');
export type AgentType = z.infer<typeof AgentType>;

/** The pipeline's stages, in the order they run. */
export const PIPELINE_STAGES = ['discovery', 'planning', 'tickets'] as const;

/** A stage of the pipeline; a collector may route back only to an earlier one. */
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/** The agent type that does each stage's work: where the context manager routes a stage's reconstructed context. */
export const STAGE_AGENT_TYPES: Readonly<Record<PipelineStage, AgentType>> = {
  discovery: 'discovery-agent',
  planning: 'planning-agent',
  tickets: 'ticket-agent',
};

/** The agent type that consolidates each stage: a destination the context manager may route this stage's context to. */
export const STAGE_COLLECTOR_TYPES: Readonly<Record<PipelineStage, AgentType>> = {
  discovery: 'discovery-collector',
  planning: 'planning-collector',
  tickets: 'ticket-collector',
};
