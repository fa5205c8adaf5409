import type { PayloadContractRegistry } from './contractRegistry';
import type { HandoffEnvelope } from './envelope';
import { checkReferences } from './referenceLayer';
import { checkSchema } from './schemaLayer';
import { checkSemantics } from './semanticLayer';
import type { HandoffValidationContext } from './validationContext';
import { hasBlockingErrors, type ValidationError } from './validationError';

/** The validation layers, in the order they run (spec 003 §6.1; the constitutional layer has no counterpart here). */
export type ValidationLayer = 'schema' | 'semantic' | 'reference';

/** The verdict on one handoff. */
export type HandoffValidation =
  | {
      readonly ok: true;
      /** The envelope with its payload parsed (defaults applied) and migrated to the registered version. */
      readonly envelope: HandoffEnvelope;
      readonly warnings: readonly ValidationError[];
      readonly migrationsApplied: readonly string[];
    }
  | {
      readonly ok: false;
      /** The layer whose errors stopped validation. */
      readonly failedLayer: ValidationLayer;
      /** Everything found up to and including that layer: the blocking errors and any warnings. */
      readonly errors: readonly ValidationError[];
    };

/**
 * Validates a handoff envelope layer by layer: SCHEMA, then SEMANTIC, then CROSS-REFERENCE.
 * Warnings never stop the handoff; errors do.
 */
export function validateHandoff(
  input: unknown,
  registry: PayloadContractRegistry,
  context: HandoffValidationContext,
): HandoffValidation {
  const schema = checkSchema(input, registry);
  // Later layers run only on a clean earlier layer: business rules and id lookups read fields whose shape only the schema vouches for, and their findings on a malformed payload would be noise for the repairing agent.
  if (!schema.accepted) return { ok: false, failedLayer: 'schema', errors: schema.findings };
  const { envelope, payload, migrationsApplied } = schema.accepted;

  const found: ValidationError[] = [...schema.findings];
  found.push(...checkSemantics(envelope, payload, context));
  if (hasBlockingErrors(found)) return { ok: false, failedLayer: 'semantic', errors: found };

  found.push(...checkReferences(envelope, payload, context));
  if (hasBlockingErrors(found)) return { ok: false, failedLayer: 'reference', errors: found };

  return { ok: true, envelope, warnings: found, migrationsApplied };
}
