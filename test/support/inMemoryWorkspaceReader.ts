import { globToRegExp } from '../../src/core/workspace/glob';
import {
  linesOf,
  type FileRange,
  type TextMatch,
  type WorkspaceFileInfo,
  type WorkspaceReader,
} from '../../src/core/workspace/workspaceReader';

/** Options for {@link InMemoryWorkspaceReader}. */
export interface InMemoryWorkspaceOptions {
  /** Paths the "host" reports as ignored (like `.gitignore`d files). */
  readonly ignored?: readonly string[];
}

/** A WorkspaceReader over a map path -> text, for tests and the benchmark. It counts reads so tests can assert access. */
export class InMemoryWorkspaceReader implements WorkspaceReader {
  private readonly files: ReadonlyMap<string, string>;
  private readonly ignored: ReadonlySet<string>;
  /** Paths passed to readRange, in order. */
  readonly reads: string[] = [];

  constructor(files: Readonly<Record<string, string>>, options: InMemoryWorkspaceOptions = {}) {
    this.files = new Map(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
    this.ignored = new Set(options.ignored ?? []);
  }

  async listFiles(glob: string | undefined, limit: number): Promise<readonly WorkspaceFileInfo[]> {
    const pattern = glob === undefined ? undefined : globToRegExp(glob);
    const found: WorkspaceFileInfo[] = [];
    for (const [path, text] of this.files) {
      if (found.length >= limit) break;
      if (pattern && !pattern.test(path)) continue;
      found.push({
        path,
        sizeBytes: new TextEncoder().encode(text).length,
        ...(this.ignored.has(path) ? { ignored: true } : {}),
      });
    }
    return found;
  }

  async readRange(path: string, startLine: number, endLine: number): Promise<FileRange | undefined> {
    this.reads.push(path);
    const text = this.files.get(path);
    if (text === undefined) return undefined;
    return linesOf(path, text, startLine, endLine);
  }

  async searchText(query: string, limit: number): Promise<readonly TextMatch[]> {
    const needle = query.toLowerCase();
    const matches: TextMatch[] = [];
    for (const [path, text] of this.files) {
      const lines = text.split('\n');
      for (let i = 0; i < lines.length && matches.length < limit; i++) {
        const line = lines[i] ?? '';
        if (line.toLowerCase().includes(needle)) matches.push({ path, line: i + 1, text: line });
      }
      if (matches.length >= limit) break;
    }
    return matches;
  }
}
