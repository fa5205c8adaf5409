import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadPersonas } from '../core/personas/registry';
import type { PersonaContract } from '../core/personas/contract';

/*
 * The built-in personas shipped next to the bundle (dist/cli/council.js → personas/). This file stays at src/cli so
 * `__dirname` is two folders below the package root both in the bundle and when tests run the source.
 */
const PERSONAS_FOLDER = resolve(__dirname, '..', '..', 'personas');

/** The personas a council of the `council` command seats from. */
export async function builtInPersonas(): Promise<readonly PersonaContract[]> {
  const list = async () => {
    const names = (await readdir(PERSONAS_FOLDER)).filter(name => name.endsWith('.md')).sort();
    return Promise.all(
      names.map(async name => ({
        path: `personas/${name}`,
        text: await readFile(join(PERSONAS_FOLDER, name), 'utf8'),
      })),
    );
  };
  return (await loadPersonas({ builtIn: { list } })).personas;
}
