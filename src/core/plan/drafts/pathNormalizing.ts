import { updateArray } from '../../llm/replyNormalizing';
import { workspacePathProblem } from '../schemas/common';
import type { Note } from './normalizing';

/** The workspace-relative spelling of a path written loosely ("./src\\a.ts" -> "src/a.ts"); the path itself otherwise. */
function tidyPath(path: string): string {
  let tidy = path
    .trim()
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/');
  while (tidy.startsWith('./')) tidy = tidy.slice(2);
  return tidy.endsWith('/') ? tidy.slice(0, -1) : tidy;
}

/**
 * The path at `value` made workspace-relative when only its spelling was off (noted), or undefined (noted as
 * dropped) when it is no workspace-relative path at all.
 */
export function usablePath(value: string, label: string, note: Note): string | undefined {
  if (workspacePathProblem(value) === undefined) return value;
  const tidy = tidyPath(value);
  if (workspacePathProblem(tidy) !== undefined) {
    note(`dropped ${label} "${value}": not a workspace-relative path`);
    return undefined;
  }
  note(`read ${label} "${value}" as "${tidy}"`);
  return tidy;
}

/** Tidies the paths of the string array at `owner[key]`, drops those that are no workspace paths, and repeats. */
export function normalizePathList(owner: unknown, key: string, label: string, note: Note): void {
  updateArray(owner, key, list => {
    const seen = new Set<string>();
    return list.flatMap(item => {
      if (typeof item !== 'string') return [item];
      const path = usablePath(item, label, note);
      if (path === undefined) return [];
      if (seen.has(path)) {
        note(`dropped duplicate ${label} "${path}"`);
        return [];
      }
      seen.add(path);
      return [path];
    });
  });
}
