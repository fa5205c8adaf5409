import { z } from 'zod';

/** A string with at least one non-whitespace character ("not blank" in the spec); described when its name is not enough. */
export function nonBlank(description?: string): z.ZodString {
  const text = z.string().regex(/\S/, { message: 'must not be blank' });
  return description === undefined ? text : text.describe(description);
}

/** A score or confidence between 0 and 1 inclusive (the bounds say the scale; a description says what it measures). */
export function unitInterval(description?: string): z.ZodNumber {
  const score = z.number().min(0).max(1);
  return description === undefined ? score : score.describe(description);
}

/** Free-form string key/value pairs (training or routing metadata). */
export const StringMap = z.record(z.string(), z.string());

/** Why `path` is not a workspace-relative path; undefined when it is one. */
export function workspacePathProblem(path: string): string | undefined {
  if (path.trim() === '') return 'must not be blank';
  if (path !== path.trim()) return 'must not start or end with whitespace';
  if (path.includes('\\')) return 'must use "/" as separator';
  if (path.startsWith('/') || path.startsWith('~')) return 'must be relative to the workspace folder, not absolute';
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) return 'must be relative to the workspace folder, not a drive or URI';
  const segments = path.split('/');
  if (segments.some(segment => segment === '')) return 'must not contain empty segments ("//" or a trailing "/")';
  if (segments.includes('..')) return 'must not contain ".." segments';
  if (segments.includes('.')) return 'must not contain "." segments';
  return undefined;
}

/** A file path relative to the workspace folder, "/"-separated, with no "..", "." or absolute prefix. */
export function workspacePath(description?: string): z.ZodString {
  return z
    .string()
    .superRefine((value, ctx) => {
      const problem = workspacePathProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `path "${value}" ${problem}` });
    })
    .describe(
      `${description === undefined ? '' : `${description} `}Workspace-relative, "/"-separated, e.g. src/app/main.ts.`,
    );
}

type PathSegment = string | number;

/** Adds one custom issue at `path`; shorthand for semantic rules in superRefine. */
export function addIssue(ctx: z.RefinementCtx, path: readonly PathSegment[], message: string): void {
  ctx.addIssue({ code: 'custom', path: [...path], message });
}

/** A 1-based, inclusive line range must not end before it starts. */
export function checkLineRange(
  value: { readonly startLine: number; readonly endLine: number },
  ctx: z.RefinementCtx,
): void {
  if (value.startLine > value.endLine) {
    addIssue(ctx, ['endLine'], `endLine ${value.endLine} is before startLine ${value.startLine}`);
  }
}

/** Reports every item whose `key` repeats an earlier item's, at `[...at, index, field]`. */
export function requireUnique<T>(
  ctx: z.RefinementCtx,
  items: readonly T[],
  key: (item: T) => string,
  at: readonly PathSegment[],
  field: string,
): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const value = key(item);
    if (seen.has(value)) addIssue(ctx, [...at, index, field], `duplicate ${field} "${value}"`);
    seen.add(value);
  });
}
