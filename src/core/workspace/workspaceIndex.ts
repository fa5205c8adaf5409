import type { CancellationSignal } from '../llm/languageModel';
import { isIgnoredPath, looksBinary } from './pathFilter';
import type { WorkspaceFileInfo, WorkspaceReader } from './workspaceReader';

/** Most files indexed per run; larger workspaces are explored through search and globs. */
const DEFAULT_INDEX_LIMIT = 5000;

/** What agents may see of the workspace: visible files, and the paths that must stay hidden. */
export interface WorkspaceIndex {
  /** Files agents may list and read (not ignored, not binary), in the reader's order. */
  readonly visible: readonly WorkspaceFileInfo[];
  readonly visiblePaths: ReadonlySet<string>;
  /** Paths the reader reported as ignored. */
  readonly hiddenPaths: ReadonlySet<string>;
}

/** True when agents may see `path`, given what the reader reported about it. */
export function isVisibleFile(file: WorkspaceFileInfo): boolean {
  return file.ignored !== true && !isIgnoredPath(file.path) && !looksBinary(file.path);
}

/** Lists the workspace once per run; stages use it to split work and to check that cited files exist. */
export async function indexWorkspace(
  reader: WorkspaceReader,
  limit = DEFAULT_INDEX_LIMIT,
  token?: CancellationSignal,
): Promise<WorkspaceIndex> {
  const files = await reader.listFiles(undefined, limit, token);
  const visible = files.filter(isVisibleFile);
  return {
    visible,
    visiblePaths: new Set(visible.map(file => file.path)),
    hiddenPaths: new Set(files.filter(file => !isVisibleFile(file)).map(file => file.path)),
  };
}
