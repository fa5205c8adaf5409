import { z } from 'zod';
import type { IdSource } from '../../clock';
import { AGENT_TYPES, type AgentType } from './agentType';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const WORKFLOW_RUN_ID = new RegExp(`^wf-${UUID}$`);
const SEQUENCE = /^[1-9][0-9]*$/;
const TIMESTAMP = '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?Z';
const Instant = z.iso.datetime();

/** The parts of a context id, as Council builds them (a run id from `newWorkflowRunId`, a clock's instant). */
interface ContextIdParts {
  readonly workflowRunId: string;
  readonly agentType: AgentType;
  readonly sequenceNumber: number;
  readonly timestamp: string;
}

/**
 * What is wrong with `id` as a context id `wf-{uuid}/{agentType}/{sequenceNumber}/{timestamp}`;
 * empty when valid. `allowed` narrows which agent types may appear.
 */
export function contextIdProblems(id: string, allowed: readonly AgentType[] = AGENT_TYPES): string[] {
  const parts = id.split('/');
  if (parts.length !== 4) {
    return [`expected 4 parts wf-{uuid}/{agentType}/{sequenceNumber}/{timestamp}, got ${parts.length}`];
  }
  const [runId = '', agentType = '', sequence = '', timestamp = ''] = parts;
  const problems: string[] = [];
  if (!WORKFLOW_RUN_ID.test(runId)) problems.push(`workflowRunId "${runId}" must be wf-{uuid}`);
  if (!(AGENT_TYPES as readonly string[]).includes(agentType)) {
    problems.push(`agentType "${agentType}" is not a known agent type`);
  } else if (!(allowed as readonly string[]).includes(agentType)) {
    problems.push(`agentType "${agentType}" must be one of: ${allowed.join(', ')}`);
  }
  if (!SEQUENCE.test(sequence) || !Number.isSafeInteger(Number(sequence))) {
    problems.push(`sequenceNumber "${sequence}" must be an integer >= 1 without leading zeros`);
  }
  if (!Instant.safeParse(timestamp).success) {
    problems.push(`timestamp "${timestamp}" must be an ISO-8601 UTC instant such as 2026-01-19T10:00:00.000Z`);
  }
  return problems;
}

/** Joins the parts into `wf-{uuid}/{agentType}/{sequenceNumber}/{timestamp}` (Council's own: not checked again). */
export function formatContextId(parts: ContextIdParts): string {
  return `${parts.workflowRunId}/${parts.agentType}/${parts.sequenceNumber}/${parts.timestamp}`;
}

/** A new workflow run id `wf-{uuid}` from the IdSource port. */
export function newWorkflowRunId(ids: IdSource): string {
  return `wf-${ids.next()}`;
}

/**
 * A context id (string form) whose agent type is one of `allowed` (any agent type when none given).
 * The JSON Schema carries a pattern so a model can produce it; zod reports each bad part.
 */
export function contextIdOf(...allowed: AgentType[]): z.ZodString {
  const types = allowed.length > 0 ? allowed : [...AGENT_TYPES];
  const pattern = `^wf-${UUID}/(?:${types.join('|')})/[1-9][0-9]*/${TIMESTAMP}$`;
  return z
    .string()
    .superRefine((value, ctx) => {
      for (const problem of contextIdProblems(value, types)) ctx.addIssue({ code: 'custom', message: problem });
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
/** A context id in string form. */
export type ContextId = z.infer<typeof ContextId>;
