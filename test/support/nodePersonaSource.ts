import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { PersonaFile, PersonaSource } from '../../src/core/personas/registry';

/** The repository root, so sources can name files the way the extension does (`personas/x.md`). */
export const REPO_ROOT = resolve(__dirname, '..', '..');

/** The repo's built-in persona folder. */
export const BUILT_IN_PERSONAS_DIR = join(REPO_ROOT, 'personas');

/**
 * A PersonaSource over a folder on disk (tests only; the extension uses vscode.workspace.fs).
 * Lists `*.md` files sorted by name, with paths relative to the repo root; a missing folder lists as empty.
 */
export function nodePersonaSource(directory: string = BUILT_IN_PERSONAS_DIR): PersonaSource {
  return {
    async list(): Promise<readonly PersonaFile[]> {
      let names: string[];
      try {
        names = await readdir(directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const markdown = names.filter(name => name.endsWith('.md')).sort();
      return Promise.all(
        markdown.map(async name => {
          const file = join(directory, name);
          return { path: relative(REPO_ROOT, file).split('\\').join('/'), text: await readFile(file, 'utf8') };
        }),
      );
    },
  };
}

/** A PersonaSource over in-memory files, in the given order. */
export function memoryPersonaSource(files: Readonly<Record<string, string>>): PersonaSource {
  return { list: () => Promise.resolve(Object.entries(files).map(([path, text]) => ({ path, text }))) };
}
