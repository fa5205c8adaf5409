import { globToRegExp } from '../../../../src/core/workspace/glob';
import { linesOf, type WorkspaceReader } from '../../../../src/core/workspace/workspaceReader';

/** A workspace of files held in memory, read through the same port Council reads real workspaces with. */
export function memoryReader(files: Readonly<Record<string, string>>): WorkspaceReader {
  const paths = Object.keys(files).sort();
  return {
    listFiles: async (glob, limit) =>
      paths
        .filter(p => glob === undefined || globToRegExp(glob).test(p))
        .slice(0, limit)
        .map(path => ({ path, sizeBytes: (files[path] ?? '').length })),
    readRange: async (path, start, end) => {
      const text = files[path];
      return text === undefined ? undefined : linesOf(path, text, start, end);
    },
    searchText: async () => [],
  };
}
