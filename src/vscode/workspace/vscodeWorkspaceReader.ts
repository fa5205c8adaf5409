import * as vscode from 'vscode';
import type { CancellationSignal } from '../../core/llm/languageModel';
import { globToRegExp } from '../../core/workspace/glob';
import { isIgnoredPath, looksBinary } from '../../core/workspace/pathFilter';
import {
  linesOf,
  type FileRange,
  type TextMatch,
  type WorkspaceFileInfo,
  type WorkspaceReader,
} from '../../core/workspace/workspaceReader';
import { excludeGlobOf, workspaceExcludePatterns } from './workspaceExclude';
import { relativeWorkspacePath, resolveWorkspacePath } from './workspacePaths';

/** Bounds of the reader. */
export interface WorkspaceReaderLimits {
  /** Most files listed per workspace folder. */
  readonly maxFiles: number;
  /** Larger files are not read (their range says so). */
  readonly maxFileBytes: number;
  /** Most bytes a single search reads before it stops. */
  readonly maxSearchBytes: number;
}

/** Defaults: 5,000 files, 512 KB per file, 8 MB per search. */
const DEFAULT_READER_LIMITS: WorkspaceReaderLimits = {
  maxFiles: 5000,
  maxFileBytes: 512 * 1024,
  maxSearchBytes: 8 * 1024 * 1024,
};

interface Listed extends WorkspaceFileInfo {
  readonly uri: vscode.Uri;
}

/**
 * The pipeline's read-only view of the workspace: `workspace.findFiles` (honouring files.exclude and search.exclude,
 * never node_modules, .git, dist, out or earlier run reports) and `workspace.fs` reads bounded in size, with binary
 * files detected and never returned as text. The listing is taken once and kept for the reader's life (one chat request).
 */
export class VsCodeWorkspaceReader implements WorkspaceReader {
  private listing: Promise<readonly Listed[]> | undefined;

  constructor(private readonly limits: WorkspaceReaderLimits = DEFAULT_READER_LIMITS) {}

  async listFiles(
    glob: string | undefined,
    limit: number,
    token?: CancellationSignal,
  ): Promise<readonly WorkspaceFileInfo[]> {
    const pattern = glob === undefined ? undefined : globToRegExp(glob);
    return (await this.list(token))
      .filter(file => !pattern || pattern.test(file.path))
      .slice(0, limit)
      .map(({ path, sizeBytes }) => ({ path, sizeBytes }));
  }

  async readRange(path: string, startLine: number, endLine: number): Promise<FileRange | undefined> {
    const uri = resolveWorkspacePath(path);
    if (!uri) return undefined;
    let size: number;
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) return undefined;
      size = stat.size;
    } catch {
      return undefined;
    }
    if (looksBinary(path)) return { path, startLine: 1, endLine: 1, totalLines: 1, text: '(binary file: not read)' };
    if (size > this.limits.maxFileBytes)
      return { path, startLine: 1, endLine: 1, totalLines: 1, text: `(file too large to read: ${size} bytes)` };
    const text = await this.readText(uri);
    if (text === undefined) return undefined;
    if (looksBinary(path, text))
      return { path, startLine: 1, endLine: 1, totalLines: 1, text: '(binary file: not read)' };
    return linesOf(path, text, startLine, endLine);
  }

  async searchText(query: string, limit: number, token?: CancellationSignal): Promise<readonly TextMatch[]> {
    const needle = query.toLowerCase();
    const matches: TextMatch[] = [];
    let budget = this.limits.maxSearchBytes;
    for (const file of await this.list(token)) {
      if (matches.length >= limit || budget <= 0 || token?.isCancellationRequested) break;
      if (looksBinary(file.path) || file.sizeBytes > this.limits.maxFileBytes) continue;
      budget -= file.sizeBytes;
      const text = await this.readText(file.uri);
      if (text === undefined || looksBinary(file.path, text)) continue;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length && matches.length < limit; i++) {
        const line = lines[i] ?? '';
        if (line.toLowerCase().includes(needle)) matches.push({ path: file.path, line: i + 1, text: line });
      }
    }
    return matches;
  }

  private async readText(uri: vscode.Uri): Promise<string | undefined> {
    try {
      return new TextDecoder('utf-8', { fatal: false }).decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return undefined;
    }
  }

  private list(token?: CancellationSignal): Promise<readonly Listed[]> {
    this.listing ??= this.listAll(token);
    return this.listing;
  }

  private async listAll(token?: CancellationSignal): Promise<readonly Listed[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const listed: Listed[] = [];
    for (const folder of folders) {
      if (token?.isCancellationRequested) break;
      const patterns = workspaceExcludePatterns(folder.uri);
      // Filtered again here: not every host's file search applies a brace-group exclude.
      const excluded = patterns.map(pattern => globToRegExp(pattern));
      const found = await vscode.workspace.findFiles(
        new vscode.RelativePattern(folder, '**/*'),
        excludeGlobOf(patterns),
        this.limits.maxFiles,
      );
      const uris = found.filter(uri => {
        const inner = relativeWorkspacePath(folder, uri, false);
        return !isIgnoredPath(inner) && !excluded.some(pattern => pattern.test(inner));
      });
      const sizes = await Promise.all(
        uris.map(uri =>
          vscode.workspace.fs.stat(uri).then(
            stat => stat.size,
            () => -1,
          ),
        ),
      );
      uris.forEach((uri, i) => {
        const sizeBytes = sizes[i] ?? -1;
        if (sizeBytes >= 0)
          listed.push({ uri, path: relativeWorkspacePath(folder, uri, folders.length > 1), sizeBytes });
      });
    }
    return listed.sort((a, b) => a.path.localeCompare(b.path));
  }
}
