import type { PayloadContractRegistry } from './contractRegistry';
import type { HandoffEnvelope } from './envelope';
import { checkReferences } from './referenceLayer';
import { checkSchema } from './schemaLayer';
import { checkSemantics } from './semanticLayer';
import type { HandoffValidationContext } from './validationContext';
import type { ValidationError } from './validationError';

/** The audit of one accepted handoff: the envelope with its payload parsed (defaults applied) and what was found. */
export interface HandoffAudit {
  /** Undefined when the payload does not match its contract (then `findings` says where). */
  readonly envelope?: HandoffEnvelope;
  readonly findings: readonly ValidationError[];
}

/**
 * Audits a handoff layer by layer (spec 003 §6): SCHEMA, then SEMANTIC and CROSS-REFERENCE on a payload that matched
 * its schema. The reply was already checked and repaired against its draft schema; the audit repairs nothing, it
 * records what the run should know (an unknown file, a dangling ticket id, a business rule broken).
 */
export function auditHandoff(
  input: unknown,
  registry: PayloadContractRegistry,
  context: HandoffValidationContext,
): HandoffAudit {
  const schema = checkSchema(input, registry);
  // The later layers read fields whose shape only the schema vouches for.
  if (!schema.accepted) return { findings: schema.findings };
  const { envelope, payload } = schema.accepted;
  return {
    envelope,
    findings: [...checkSemantics(envelope, payload, context), ...checkReferences(envelope, payload, context)],
  };
}
