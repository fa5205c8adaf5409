const ROOT = '(root files)';

function groupBy(paths: readonly string[], depth: number): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const segments = path.split('/');
    const key =
      segments.length > depth
        ? segments.slice(0, depth).join('/')
        : segments.length > 1
          ? segments.slice(0, -1).join('/')
          : ROOT;
    groups.set(key, [...(groups.get(key) ?? []), path]);
  }
  return groups;
}

/**
 * Splits the workspace into at most `maxAreas` areas of similar size by top-level folder (one level deeper when
 * everything sits in one folder, e.g. `src/`), each one discovery agent's: the folder prefixes (or "(root files)") it
 * covers and its files. Deterministic, so delegation costs no model call.
 */
export function splitIntoAreas(paths: readonly string[], maxAreas: number) {
  if (paths.length === 0) return [];
  let groups = groupBy(paths, 1);
  if (groups.size === 1 && !groups.has(ROOT)) groups = groupBy(paths, 2);
  const ordered = [...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const bins: { names: string[]; files: string[] }[] = Array.from(
    { length: Math.min(Math.max(1, maxAreas), ordered.length) },
    () => ({ names: [], files: [] }),
  );
  for (const [name, files] of ordered) {
    const smallest = bins.reduce((best, bin) => (bin.files.length < best.files.length ? bin : best));
    smallest.names.push(name);
    smallest.files.push(...files);
  }
  return bins.map(bin => ({ names: bin.names.sort(), files: bin.files.sort() }));
}
