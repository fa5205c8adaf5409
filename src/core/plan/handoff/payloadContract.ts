import type { z } from 'zod';
import type { ValidationSeverity } from './validationError';

/** A business-rule problem a payload contract finds in an already schema-valid payload. */
export interface PayloadIssue {
  readonly message: string;
  /** Path inside the payload. */
  readonly path: readonly PropertyKey[];
  /** Default `error`; `warning` reports without blocking. */
  readonly severity?: ValidationSeverity;
  readonly expected?: string;
  readonly actual?: string;
  readonly remediation?: string;
}

/** Kinds of ids a payload can point at; each has its own REF code. */
export type ReferenceKind = 'file' | 'context' | 'ticket';

/** Something the payload refers to that must exist elsewhere (checked in the cross-reference layer). */
export interface PayloadReference {
  readonly kind: ReferenceKind;
  /** The file path, context id or ticket id. */
  readonly id: string;
  /** Path inside the payload where the reference sits. */
  readonly path: readonly PropertyKey[];
}

/**
 * What a stage's payload must satisfy: its zod schema, its own business rules, and what it refers to.
 * Contracts only *list* references; the validator owns the lookups so codes and wording stay uniform.
 */
export interface PayloadContract<T> {
  /** `name@major.minor.patch`, e.g. `discovery-report@1.0.0`. */
  readonly schemaRef: string;
  readonly schema: z.ZodType<T>;
  readonly semantic?: (payload: T) => readonly PayloadIssue[];
  readonly references?: (payload: T) => readonly PayloadReference[];
}
