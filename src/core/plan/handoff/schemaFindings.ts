import type { z } from 'zod';
import { finding } from './finding';
import { describeValue, type ValidationError } from './validationError';

function valueAt(root: unknown, path: readonly PropertyKey[]): { readonly present: boolean; readonly value: unknown } {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !(key in current))
      return { present: false, value: undefined };
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { present: current !== undefined, value: current };
}

function expectedOf(issue: z.core.$ZodIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'invalid_format':
      return issue.pattern ?? issue.format;
    case 'invalid_value':
      return issue.values.map(value => describeValue(value)).join(' | ');
    case 'too_small':
      return `${issue.inclusive === false ? '>' : '>='} ${String(issue.minimum)}`;
    case 'too_big':
      return `${issue.inclusive === false ? '<' : '<='} ${String(issue.maximum)}`;
    default:
      return undefined;
  }
}

/**
 * Maps zod issues to SCH findings: absent field -> SCH-001, wrong type -> SCH-002, format -> SCH-003,
 * other constraints -> SCH-004, unknown keys -> SCH-005. `input` is what was parsed, `prefix` where it sits in the envelope.
 */
export function schemaFindings(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): ValidationError[] {
  return issues.flatMap(issue => {
    const path = [...prefix, ...issue.path];
    const { present, value } = valueAt(input, issue.path);
    const expected = expectedOf(issue);
    const field = path.length === 0 ? 'the value' : String(path[path.length - 1]);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map(key =>
        finding('SCH-005', {
          message: `Unexpected field: ${key}`,
          path: [...path, key],
          actual: describeValue(valueAt(value, [key]).value),
        }),
      );
    }
    if (issue.code === 'invalid_type' && !present) {
      return [finding('SCH-001', { message: `Missing required field: ${field}`, path, expected })];
    }
    const actual = describeValue(value);
    if (issue.code === 'invalid_type') {
      return [
        finding('SCH-002', {
          message: `Invalid type for ${field}: expected ${issue.expected}`,
          path,
          expected,
          actual,
        }),
      ];
    }
    if (issue.code === 'invalid_format') {
      return [
        finding('SCH-003', { message: `Format mismatch for ${field}: ${issue.message}`, path, expected, actual }),
      ];
    }
    return [
      finding('SCH-004', { message: `Value not allowed for ${field}: ${issue.message}`, path, expected, actual }),
    ];
  });
}
