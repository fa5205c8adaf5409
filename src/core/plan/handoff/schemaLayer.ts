import type { ParsedPayload, PayloadContractRegistry } from './contractRegistry';
import { HandoffEnvelopeSchema, type HandoffEnvelope } from './envelope';
import { finding } from './finding';
import { schemaFindings } from './schemaFindings';
import { parseSchemaRef } from './semver';
import type { ValidationError } from './validationError';

/** Schema layer result: findings, plus the parsed envelope and payload when the payload matched its contract. */
export interface SchemaLayerResult {
  readonly findings: readonly ValidationError[];
  readonly accepted?: { readonly envelope: HandoffEnvelope; readonly payload: ParsedPayload };
}

/** Layer 1: the envelope's own schema, a registered payload contract, and the payload against its zod schema. */
export function checkSchema(input: unknown, registry: PayloadContractRegistry): SchemaLayerResult {
  const parsedEnvelope = HandoffEnvelopeSchema.safeParse(input);
  if (!parsedEnvelope.success) return { findings: schemaFindings(parsedEnvelope.error.issues, input) };
  const envelope = parsedEnvelope.data;

  const ref = parseSchemaRef(envelope.payloadSchema);
  const contract = ref && registry.lookup(ref.name);
  if (!contract) {
    const known = registry.names();
    return {
      findings: [
        finding('SCH-007', {
          message: `Unknown payload schema: ${envelope.payloadSchema}`,
          path: ['payloadSchema'],
          expected: known.join(' | ') || '(no schemas registered)',
          actual: envelope.payloadSchema,
          remediation: `Use one of the registered payload schemas: ${known.join(', ') || 'none'}.`,
        }),
      ],
    };
  }
  const parsedPayload = contract.parse(envelope.payload);
  if (!parsedPayload.success) return { findings: schemaFindings(parsedPayload.issues, envelope.payload, ['payload']) };
  return {
    findings: [],
    accepted: { envelope: { ...envelope, payload: parsedPayload.parsed.value }, payload: parsedPayload.parsed },
  };
}
