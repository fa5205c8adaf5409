import type { ParsedPayload, PayloadContractRegistry } from './contractRegistry';
import { HandoffEnvelopeSchema, type HandoffEnvelope } from './envelope';
import { finding } from './finding';
import { schemaFindings } from './schemaFindings';
import { compareSemVer, formatSchemaRef, parseSchemaRef, parseSemVer } from './semver';
import { hasBlockingErrors, type ValidationError } from './validationError';

/** The envelope major this build reads. */
const SUPPORTED_ENVELOPE_MAJOR = 1;

/** Schema layer result: findings, plus the parsed envelope and payload when nothing blocked. */
export interface SchemaLayerResult {
  readonly findings: readonly ValidationError[];
  readonly accepted?: {
    readonly envelope: HandoffEnvelope;
    readonly payload: ParsedPayload;
    readonly migrationsApplied: readonly string[];
  };
}

/**
 * Layer 1: the envelope's own schema, its version, the payload schema reference (known name, compatible or
 * migratable major version) and the payload against its registered zod schema.
 */
export function checkSchema(input: unknown, registry: PayloadContractRegistry): SchemaLayerResult {
  const parsedEnvelope = HandoffEnvelopeSchema.safeParse(input);
  if (!parsedEnvelope.success) return { findings: schemaFindings(parsedEnvelope.error.issues, input) };
  const envelope = parsedEnvelope.data;

  const envelopeVersion = parseSemVer(envelope.envelopeVersion);
  if (envelopeVersion?.major !== SUPPORTED_ENVELOPE_MAJOR) {
    return {
      findings: [
        finding('SCH-006', {
          message: `Unsupported envelope version ${envelope.envelopeVersion}`,
          path: ['envelopeVersion'],
          expected: `${SUPPORTED_ENVELOPE_MAJOR}.x.y`,
          actual: envelope.envelopeVersion,
        }),
      ],
    };
  }

  const ref = parseSchemaRef(envelope.payloadSchema);
  const contract = ref && registry.lookup(ref.name);
  if (!ref || !contract) {
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

  const findings: ValidationError[] = [];
  let payload = envelope.payload;
  let migrationsApplied: readonly string[] = [];
  if (ref.version.major !== contract.ref.version.major) {
    const outcome = registry.migrations.migrate(payload, ref, contract.ref);
    if (outcome.kind !== 'migrated') {
      const code = outcome.kind === 'missing' ? 'SCH-008' : 'SCH-009';
      const fix = code === 'SCH-008' ? 'or register a migration for this step' : 'or fix the migration';
      return {
        findings: [
          finding(code, {
            message: `Cannot accept ${envelope.payloadSchema}: ${outcome.reason}`,
            path: ['payloadSchema'],
            expected: formatSchemaRef(contract.ref),
            actual: envelope.payloadSchema,
            remediation: `Produce the payload as ${formatSchemaRef(contract.ref)}, ${fix}.`,
          }),
        ],
      };
    }
    payload = outcome.payload;
    migrationsApplied = outcome.applied;
  } else if (compareSemVer(ref.version, contract.ref.version) > 0) {
    findings.push(
      finding('SCH-010', {
        message: `Payload written for ${envelope.payloadSchema}, newer than the supported ${formatSchemaRef(contract.ref)}`,
        path: ['payloadSchema'],
        expected: formatSchemaRef(contract.ref),
        actual: envelope.payloadSchema,
      }),
    );
  }

  const parsedPayload = contract.parse(payload);
  if (!parsedPayload.success) {
    findings.push(...schemaFindings(parsedPayload.issues, payload, ['payload']));
    return { findings };
  }
  if (hasBlockingErrors(findings)) return { findings };
  return {
    findings,
    accepted: {
      envelope: { ...envelope, payload: parsedPayload.parsed.value },
      payload: parsedPayload.parsed,
      migrationsApplied,
    },
  };
}
