import { ERROR_CATALOGUE, type ErrorCode } from './errorCatalogue';
import { jsonPath, type ValidationError, type ValidationSeverity } from './validationError';

/** What a check knows about one problem; the catalogue fills in the rest. */
export interface FindingDetails {
  readonly message: string;
  readonly path: readonly PropertyKey[];
  readonly expected?: string;
  readonly actual?: string;
  /** Overrides the catalogue's remediation when the check can be more specific. */
  readonly remediation?: string;
  /** Overrides the catalogue's severity (used by payload rules that only warn). */
  readonly severity?: ValidationSeverity;
}

/** Builds a ValidationError for a catalogued code. */
export function finding(code: ErrorCode, details: FindingDetails): ValidationError {
  const entry = ERROR_CATALOGUE[code];
  return {
    error_code: code,
    message: details.message,
    severity: details.severity ?? entry.severity,
    path: jsonPath(details.path),
    ...(details.expected === undefined ? {} : { expected: details.expected }),
    ...(details.actual === undefined ? {} : { actual: details.actual }),
    remediation: details.remediation ?? entry.remediation,
  };
}
