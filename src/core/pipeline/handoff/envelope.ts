import { z } from 'zod';
import { SCHEMA_REF_PATTERN, SEMVER_PATTERN } from './semver';

/** The envelope version this build writes; any 1.x.y is read (spec 003 §2.1: minor versions only add optional fields). */
export const ENVELOPE_VERSION = '1.0.0';

/** An agent at one end of a handoff: its type (role in the pipeline) and this instance's id. */
export const HandoffPartySchema = z.object({
  agentId: z.string().min(1),
  agentType: z.string().min(1),
});
export type HandoffParty = z.infer<typeof HandoffPartySchema>;

/** Where the handoff sits in its chain; depth counts delegations from the chain's root. */
export const HandoffTraceSchema = z.object({
  traceId: z.string().min(1),
  depth: z.number().int().min(0),
  parentHandoffId: z.string().min(1).optional(),
});
export type HandoffTrace = z.infer<typeof HandoffTraceSchema>;

/**
 * The envelope that wraps every agent-to-agent handoff (spec 003 §2, session context).
 * The payload is opaque here; `payloadSchema` names the registered contract that validates it.
 */
export const HandoffEnvelopeSchema = z.object({
  envelopeVersion: z.string().regex(SEMVER_PATTERN),
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
