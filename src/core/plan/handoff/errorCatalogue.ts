import type { ValidationSeverity } from './validationError';

/** What one error code means and what to do about it. */
export interface ErrorCodeEntry {
  readonly layer: 'schema' | 'semantic' | 'reference';
  readonly severity: ValidationSeverity;
  readonly meaning: string;
  readonly remediation: string;
}

/**
 * Every code the handoff validator can produce (spec 003 §6.3, adapted to Council's pipeline).
 * Codes are stable: never renumber, only add (SCH-006 and SCH-008–010, envelope and payload versions, are retired: one
 * build writes and reads every handoff of a run, so no version can differ). SEM-005 takes its severity from the payload rule that raised it.
 */
export const ERROR_CATALOGUE = {
  'SCH-001': {
    layer: 'schema',
    severity: 'error',
    meaning: 'A required field is missing.',
    remediation: 'Add the required field.',
  },
  'SCH-002': {
    layer: 'schema',
    severity: 'error',
    meaning: 'A field has the wrong type.',
    remediation: 'Correct the field type.',
  },
  'SCH-003': {
    layer: 'schema',
    severity: 'error',
    meaning: 'A field does not match its required format or pattern.',
    remediation: 'Use the expected format (e.g. an ISO-8601 timestamp or `name@1.0.0`).',
  },
  'SCH-004': {
    layer: 'schema',
    severity: 'error',
    meaning: 'A value is outside what the schema allows (enum, range, length or rule).',
    remediation: 'Use one of the allowed values.',
  },
  'SCH-005': {
    layer: 'schema',
    severity: 'error',
    meaning: 'A field the schema does not define is present.',
    remediation: 'Remove the field or move its content into a defined field.',
  },
  'SCH-007': {
    layer: 'schema',
    severity: 'error',
    meaning: 'The payload schema is not registered.',
    remediation: 'Use one of the registered payload schemas.',
  },
  'SEM-001': {
    layer: 'semantic',
    severity: 'error',
    meaning: 'Source and target are the same agent.',
    remediation: 'Address the handoff to a different agent.',
  },
  'SEM-002': {
    layer: 'semantic',
    severity: 'error',
    meaning: 'The handoff chain is deeper than the limit.',
    remediation: 'Return to the orchestrator instead of delegating further.',
  },
  'SEM-003': {
    layer: 'semantic',
    severity: 'error',
    meaning: 'The timestamp lies in the future.',
    remediation: 'Stamp the handoff with the current time.',
  },
  'SEM-004': {
    layer: 'semantic',
    severity: 'error',
    meaning:
      'The trace is inconsistent (parent handoff missing at depth > 0, present at depth 0, or the handoff is its own parent).',
    remediation: 'Set trace.parentHandoffId exactly when trace.depth > 0, and never to the handoff itself.',
  },
  'SEM-005': {
    layer: 'semantic',
    severity: 'error',
    meaning: "The payload breaks one of its schema's business rules.",
    remediation: 'Fix the payload as the rule describes.',
  },
  'REF-001': {
    layer: 'reference',
    severity: 'warning',
    meaning: 'A referenced file does not exist in the workspace (it may be one the work will create).',
    remediation: 'Check the path, or say that the file is to be created.',
  },
  'REF-002': {
    layer: 'reference',
    severity: 'error',
    meaning: 'A referenced upstream context id is unknown.',
    remediation: 'Refer only to context ids handed to you.',
  },
  'REF-003': {
    layer: 'reference',
    severity: 'error',
    meaning: 'A referenced ticket id is unknown.',
    remediation: 'Refer only to tickets that exist in the plan.',
  },
  'REF-004': {
    layer: 'reference',
    severity: 'warning',
    meaning: 'The parent handoff is unknown.',
    remediation: 'Set trace.parentHandoffId to the handoff that started this one.',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

/** One of the catalogued codes. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;
