import type { z } from 'zod';

/** How many issues a repair message or error lists; more only distracts the model. */
const MAX_LISTED_ISSUES = 8;

function pathLabel(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** Concise "path: message" lines for zod issues, e.g. `questions[0].impact: Too big: expected number to be <=5`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const lines = issues.slice(0, MAX_LISTED_ISSUES).map(issue => `${pathLabel(issue.path)}: ${issue.message}`);
  if (issues.length > MAX_LISTED_ISSUES) lines.push(`(${issues.length - MAX_LISTED_ISSUES} more issues)`);
  return lines;
}
