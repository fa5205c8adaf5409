import type { z } from 'zod';
import { issuePath } from '../zodIssues';

/** A zod issue phrased for the author of a persona file: which field, and what is wrong with it. */
export interface FieldProblem {
  /** Dotted field path as written in YAML, e.g. `cognitiveMode` or `relevantTo[2]`. */
  readonly field: string;
  readonly detail: string;
}

const fieldPath = (path: readonly PropertyKey[]): string => issuePath(path, '');

/** Shows a YAML value the way the author typed it: strings quoted, others by kind. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a set of fields';
  return String(value);
}

const TYPE_NAMES: Readonly<Record<string, string>> = { array: 'a list', string: 'text', object: 'a set of fields' };

function alternatives(values: readonly unknown[]): string {
  const quoted = values.map(v => JSON.stringify(v));
  if (quoted.length <= 2) return quoted.join(' or ');
  return `one of ${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** `input` is only present when the parse ran with `reportInput: true`; absent means the field was missing. */
function inputOf(issue: z.core.$ZodIssue): { readonly present: boolean; readonly value: unknown } {
  return 'input' in issue && issue.input !== undefined
    ? { present: true, value: issue.input }
    : { present: false, value: undefined };
}

/**
 * Turns one zod issue (from a parse with `reportInput: true`) into a field name and a sentence
 * such as `expected "divergent" or "convergent", got "sideways"`.
 * `knownFields` is listed when the issue is an unknown key, so a typo is easy to fix.
 */
export function describeIssue(issue: z.core.$ZodIssue, knownFields: readonly string[]): FieldProblem {
  const input = inputOf(issue);
  const field = fieldPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return {
        field: fieldPath([...issue.path, issue.keys[0] ?? '']),
        detail: `unknown field (known fields: ${knownFields.join(', ')})`,
      };
    case 'invalid_type':
      if (!input.present) return { field, detail: 'is required' };
      return { field, detail: `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${shown(input.value)}` };
    case 'invalid_value': {
      const expected = `expected ${alternatives(issue.values)}`;
      return { field, detail: input.present ? `${expected}, got ${shown(input.value)}` : `is required; ${expected}` };
    }
    case 'too_small':
      if (issue.origin === 'array') {
        const count = Number(issue.minimum);
        return { field, detail: `must list at least ${count} ${count === 1 ? 'entry' : 'entries'}` };
      }
      return { field, detail: 'must not be empty' };
    case 'invalid_format':
      return { field, detail: input.present ? `${issue.message}, got ${shown(input.value)}` : issue.message };
    default:
      return { field, detail: issue.message };
  }
}
