import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch/posix';
import {
  linesOf,
  type FileRange,
  type TextMatch,
  type WorkspaceFileInfo,
  type WorkspaceReader,
} from '../core/workspace/workspaceReader';

/** Folders a walk never enters: dependencies, version control, Council's own files. */
const SKIPPED = new Set(['node_modules', '.git', '.council', 'dist', 'out']);
/** Most files a walk looks at, so a huge folder cannot stall a command. */
const MAX_WALKED = 20_000;

/** The project folder of the `council` command, read-only: paths stay inside it. */
export class NodeWorkspaceReader implements WorkspaceReader {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The absolute path of a project-relative one, or undefined when it would leave the project. */
  private inside(path: string): string | undefined {
    const full = resolve(this.root, path);
    return full === this.root || full.startsWith(this.root + sep) ? full : undefined;
  }

  async listFiles(glob: string | undefined, limit: number): Promise<readonly WorkspaceFileInfo[]> {
    const matches = glob === undefined ? () => true : picomatch(glob, { dot: false });
    const found: WorkspaceFileInfo[] = [];
    const walk = async (folder: string, budget: { left: number }): Promise<void> => {
      let entries;
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (found.length >= limit || budget.left-- <= 0) return;
        const full = join(folder, entry.name);
        if (entry.isDirectory()) {
          if (!SKIPPED.has(entry.name)) await walk(full, budget);
        } else if (entry.isFile()) {
          const path = relative(this.root, full).split(sep).join('/');
          if (matches(path)) found.push({ path, sizeBytes: (await stat(full)).size });
        }
      }
    };
    await walk(this.root, { left: MAX_WALKED });
    return found;
  }

  async readRange(path: string, startLine: number, endLine: number): Promise<FileRange | undefined> {
    const full = this.inside(path);
    if (!full) return undefined;
    try {
      return linesOf(path, await readFile(full, 'utf8'), startLine, endLine);
    } catch {
      return undefined;
    }
  }

  async searchText(query: string, limit: number): Promise<readonly TextMatch[]> {
    const needle = query.toLowerCase();
    const matches: TextMatch[] = [];
    for (const file of await this.listFiles(undefined, 2_000)) {
      const text = (await this.readRange(file.path, 1, 100_000))?.text ?? '';
      text.split('\n').forEach((line, i) => {
        if (matches.length < limit && line.toLowerCase().includes(needle))
          matches.push({ path: file.path, line: i + 1, text: line });
      });
      if (matches.length >= limit) break;
    }
    return matches;
  }
}
