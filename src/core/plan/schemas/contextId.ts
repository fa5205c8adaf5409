import { z } from 'zod';
import { AGENT_TYPES, type AgentType } from './agentType';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const TIMESTAMP = '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?Z';

/** The parts of a context id, as Council builds them (a run id from `newRunId`, a clock's instant). */
interface ContextIdParts {
  readonly workflowRunId: string;
  readonly agentType: AgentType;
  readonly sequenceNumber: number;
  readonly timestamp: string;
}

/** Joins the parts into `wf-{uuid}/{agentType}/{sequenceNumber}/{timestamp}` (Council's own: not checked again). */
export function formatContextId(parts: ContextIdParts): string {
  return `${parts.workflowRunId}/${parts.agentType}/${parts.sequenceNumber}/${parts.timestamp}`;
}

/**
 * A context id (string form) whose agent type is one of `allowed` (any agent type when none given). Council issues
 * every context id itself (ContextIdIssuer), so the pattern describes the published records; a model is offered the
 * ids of its request as an enum instead.
 */
export function contextIdOf(...allowed: AgentType[]): z.ZodString {
  const types = allowed.length > 0 ? allowed : [...AGENT_TYPES];
  // A `/plan` run's id is `wf-{uuid}`; a generic workflow's run (which may use the pipeline's stages) `run-{uuid}`.
  const pattern = `^(?:wf|run)-${UUID}/(?:${types.join('|')})/[1-9][0-9]*/${TIMESTAMP}$`;
  return z
    .string()
    .regex(new RegExp(pattern), {
      message: `must be a context id wf-{uuid}/{agentType}/{sequenceNumber}/{timestamp}; agentType must be one of: ${types.join(', ')}`,
    })
    .meta({
      pattern,
      description:
        allowed.length > 0
          ? `Context id wf-{uuid}/{agentType}/{sequenceNumber}/{timestamp} produced by: ${types.join(', ')}. Copy it exactly.`
          : 'Context id wf-{uuid}/{agentType}/{sequenceNumber}/{timestamp}. Copy it exactly.',
    });
}

/** Any context id in string form `wf-{uuid}/{agentType}/{sequenceNumber}/{timestamp}`. */
export const ContextId = contextIdOf();
export type ContextId = z.infer<typeof ContextId>;
