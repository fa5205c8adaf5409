import type { JsonValue } from '../sandbox/scriptSandbox';

/** Deliverables' contents as the run last wrote them: what the synchronous helpers look at. */
export type DeliverableContents = ReadonlyMap<string, string>;

const TODO = /\b(TODO|FIXME|TBD|XXX)\b/;

function paths(arg: JsonValue | undefined): string[] {
  if (!Array.isArray(arg)) return [];
  return arg.flatMap(item => {
    // A plain path, or a `context.deliverables` record.
    const path = typeof item === 'string' ? item : (item as { readonly path?: unknown } | null)?.path;
    return typeof path === 'string' ? [path] : [];
  });
}

/** A file's text, by its path as scripts write it (`plan.md`, `notes/plan.md` or the full `.council/runs/…/plan.md`). */
function find(contents: DeliverableContents, folder: string, path: string): string | undefined {
  const clean = path.replace(/^\.\//, '');
  const byEnd = [...contents.keys()].find(key => key.endsWith(`/${clean}`));
  return contents.get(clean) ?? contents.get(`${folder}/${clean}`) ?? (byEnd && contents.get(byEnd));
}

/**
 * The helpers spec 002's examples use, as synchronous host functions:
 * - `files_exist(paths)`: every path was written by this run;
 * - `contains_todos(deliverables)`: a deliverable still has TODO, FIXME, TBD or XXX;
 * - `identifyGaps(deliverables)`: one sentence per deliverable that is missing, empty or has TODO markers.
 * They accept the `context.deliverables` records or plain paths.
 */
export function deliverableHelpers(
  contents: DeliverableContents,
  folder: string,
): Record<string, (...args: JsonValue[]) => JsonValue> {
  return {
    files_exist: (arg = []) => paths(arg).every(path => find(contents, folder, path) !== undefined),
    contains_todos: (arg = []) => paths(arg).some(path => TODO.test(find(contents, folder, path) ?? '')),
    identifyGaps: (arg = []) =>
      paths(arg).flatMap(path => {
        const text = find(contents, folder, path);
        if (text === undefined) return [`${path} was not written`];
        if (text.trim() === '') return [`${path} is empty`];
        const marker = TODO.exec(text);
        return marker ? [`${path} still has a ${marker[1]} marker`] : [];
      }),
  };
}
