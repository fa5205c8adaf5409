import type { CancellationSignal } from '../llm/languageModel';

/** A file the reader can see. */
export interface WorkspaceFileInfo {
  /** Workspace-relative, "/"-separated path. */
  readonly path: string;
  readonly sizeBytes: number;
  /** True when the host ignores the file (e.g. `files.exclude`, `.gitignore`); such files are never shown to agents. */
  readonly ignored?: boolean;
}

/** Lines `startLine..endLine` (1-based, inclusive) of one file. */
export interface FileRange {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number;
  readonly text: string;
}

/** Lines `startLine..endLine` of `text`, clamped to the file (every reader answers `readRange` this way). */
export function linesOf(path: string, text: string, startLine: number, endLine: number): FileRange {
  const lines = text.split('\n');
  const start = Math.max(1, Math.min(startLine, lines.length));
  const end = Math.max(start, Math.min(endLine, lines.length));
  return {
    path,
    startLine: start,
    endLine: end,
    totalLines: lines.length,
    text: lines.slice(start - 1, end).join('\n'),
  };
}

/** One line that matched a text search. */
export interface TextMatch {
  readonly path: string;
  /** 1-based line number. */
  readonly line: number;
  readonly text: string;
}

/**
 * Read-only port to the workspace's files (VS Code adapter: `workspace.findFiles` / `fs.readFile`).
 * There is deliberately no way to write: agents only propose changes; applying them is the VS Code layer's job.
 */
export interface WorkspaceReader {
  /** Up to `limit` files matching `glob` (all files when absent), in a stable order. */
  listFiles(glob: string | undefined, limit: number, token?: CancellationSignal): Promise<readonly WorkspaceFileInfo[]>;
  /** The lines asked for (clamped to the file), or undefined when the file does not exist. */
  readRange(
    path: string,
    startLine: number,
    endLine: number,
    token?: CancellationSignal,
  ): Promise<FileRange | undefined>;
  /** Up to `limit` lines containing `query` (case-insensitive). */
  searchText(query: string, limit: number, token?: CancellationSignal): Promise<readonly TextMatch[]>;
}
