import { z } from 'zod';
import { SCHEMA_REF_PATTERN } from './semver';

/** An agent at one end of a handoff: its type (role in the pipeline) and this instance's id. */
export const HandoffPartySchema = z.object({
  agentId: z.string().min(1),
  agentType: z.string().min(1),
});
export type HandoffParty = z.infer<typeof HandoffPartySchema>;

/** Where the handoff sits in its chain; depth counts delegations from the chain's root. */
const HandoffTraceSchema = z.object({
  traceId: z.string().min(1),
  depth: z.number().int().min(0),
  parentHandoffId: z.string().min(1).optional(),
});
export type HandoffTrace = z.infer<typeof HandoffTraceSchema>;

/**
 * The envelope that wraps every agent-to-agent handoff (spec 003 §2): the fields that carry meaning within one run —
 * session, the two agents, the payload's contract, time and trace. Spec 003's envelope version, priority, TTL,
 * retry count and signature are dropped: one build writes and reads a run's handoffs, nothing queues or relays them.
 */
export const HandoffEnvelopeSchema = z.object({
  sessionId: z.string().min(1),
  handoffId: z.string().min(1),
  source: HandoffPartySchema,
  target: HandoffPartySchema,
  payloadSchema: z.string().regex(SCHEMA_REF_PATTERN),
  payload: z.unknown(),
  timestamp: z.iso.datetime({ offset: true }),
  trace: HandoffTraceSchema,
});
export type HandoffEnvelope = z.infer<typeof HandoffEnvelopeSchema>;
