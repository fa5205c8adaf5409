import type { z } from 'zod';

/** How many issues a repair message or error lists; more only distracts the model. */
const MAX_LISTED_ISSUES = 8;

/** `questions[0].impact` for `['questions', 0, 'impact']`; `root` for an empty path. */
export function issuePath(path: readonly PropertyKey[], root = '(root)'): string {
  if (path.length === 0) return root;
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/**
 * Concise "path: message" lines for zod issues, e.g. `questions[0].impact: Too big: expected number to be <=5`: the
 * one way Council words a zod issue for a model or a message (persona and workflow files add line numbers and
 * suggestions of their own on top of `issuePath`).
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], root = '(root)'): string[] {
  const lines = issues.slice(0, MAX_LISTED_ISSUES).map(issue => `${issuePath(issue.path, root)}: ${issue.message}`);
  if (issues.length > MAX_LISTED_ISSUES) lines.push(`(${issues.length - MAX_LISTED_ISSUES} more issues)`);
  return lines;
}
