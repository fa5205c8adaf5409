import { z } from 'zod';

/** Which validation layer an error comes from: SCH = schema, SEM = semantic, REF = cross-reference (spec 003 §6). */
export const ERROR_CODE_PATTERN = /^(SCH|SEM|REF)-\d{3}$/;

/** `error` blocks the handoff; `warning` is reported but lets it through. */
export const ValidationSeveritySchema = z.enum(['error', 'warning']);
export type ValidationSeverity = z.infer<typeof ValidationSeveritySchema>;

/**
 * One finding about a handoff, in the shape of spec 003's error response.
 * It goes to the producing agent as repair feedback and to the user when a handoff is rejected.
 */
export const ValidationErrorSchema = z.object({
  error_code: z.string().regex(ERROR_CODE_PATTERN),
  message: z.string().min(1),
  severity: ValidationSeveritySchema,
  /** JSONPath-style location in the envelope, e.g. `$.payload.files[0].path`. */
  path: z.string(),
  expected: z.string().optional(),
  actual: z.string().optional(),
  remediation: z.string().min(1),
});
export type ValidationError = z.infer<typeof ValidationErrorSchema>;

/** `$.payload.files[0].path` for `['payload', 'files', 0, 'path']`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
    '$',
  );
}

/** Short, single-line rendering of any value for `expected` / `actual`. */
export function describeValue(value: unknown, maxLength = 120): string {
  if (value === undefined) return 'nothing (field absent)';
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
