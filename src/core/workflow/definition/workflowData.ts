/*
 * What a workflow file's data may be before its fields are checked: a tree of plain values, not too deep. YAML
 * aliases can make a value contain itself (`config: &c {self: *c}`), which no run can save or send; such data
 * is refused when the file loads, not when a run first tries to serialize it.
 */

type Path = readonly (string | number)[];

/** How deep a workflow's data may nest (phases → phase → subagents → subagent → config → … stays far below). */
export const MAX_WORKFLOW_DEPTH = 32;

/** Why the data is not a tree a run can use, and where. */
export type DataProblem =
  | { readonly kind: 'cycle'; readonly path: Path; readonly target: Path }
  | { readonly kind: 'deep'; readonly path: Path };

/** The first place where `data` refers back to one of its own parents, or nests deeper than `maxDepth`. */
export function dataProblem(data: unknown, maxDepth = MAX_WORKFLOW_DEPTH): DataProblem | undefined {
  const parents: { readonly value: object; readonly path: Path }[] = [];
  const visit = (value: unknown, path: Path): DataProblem | undefined => {
    if (value === null || typeof value !== 'object') return undefined;
    const parent = parents.find(p => p.value === value);
    if (parent) return { kind: 'cycle', path, target: parent.path };
    if (parents.length >= maxDepth) return { kind: 'deep', path };
    parents.push({ value, path });
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item: unknown, index) => [index, item])
      : Object.entries(value);
    for (const [key, child] of entries) {
      const found = visit(child, [...path, key]);
      if (found) return found;
    }
    parents.pop();
    return undefined;
  };
  return visit(data, []);
}
