import { strict as assert } from 'node:assert';
import type { z } from 'zod';

/** Each validation issue as "path: message". */
export function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map(issue => `${issue.path.join('.')}: ${issue.message}`);
}

/** Asserts the value parses cleanly. */
export function assertValid(schema: z.ZodType, value: unknown): void {
  assert.deepEqual(issuesOf(schema, value), []);
}

/** Asserts some issue sits at `path` (dot-joined) and its message contains `fragment`. */
export function assertIssue(schema: z.ZodType, value: unknown, path: string, fragment: string): void {
  const issues = issuesOf(schema, value);
  const hit = issues.some(issue => issue.startsWith(`${path}: `) && issue.includes(fragment));
  assert.ok(hit, `expected an issue at "${path}" containing "${fragment}", got:\n${issues.join('\n') || '(none)'}`);
}
