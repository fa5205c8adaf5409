import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionLog } from '../core/council/sessionLog';
import type { StoredSession } from '../core/session/storedSession';

/*
 * Council sessions of the `council` command: one versioned JSON file each (the session's stored format, the one the
 * extension keeps), under `.council/sessions/<id>.json` in the project folder.
 */

const SESSIONS_FOLDER = join('.council', 'sessions');

/** A saved session read back, or why it cannot be. */
export type SessionFile =
  | { readonly kind: 'found'; readonly sessionId: string; readonly log: SessionLog }
  | { readonly kind: 'unreadable'; readonly sessionId: string; readonly error: string };

const SAFE_ID = /^[A-Za-z0-9_-]+$/;

export class SessionFiles {
  private readonly folder: string;

  constructor(projectFolder: string) {
    this.folder = join(projectFolder, SESSIONS_FOLDER);
  }

  /** Written whole to a temporary file, then renamed, so a crash never leaves half a session. */
  async save(stored: StoredSession): Promise<void> {
    const sessionId = stored.input.sessionId;
    await mkdir(this.folder, { recursive: true });
    const file = join(this.folder, `${sessionId}.json`);
    await writeFile(`${file}.tmp`, `${JSON.stringify(stored, null, 2)}\n`, 'utf8');
    await rename(`${file}.tmp`, file);
  }

  async read(sessionId: string): Promise<SessionFile | undefined> {
    if (!SAFE_ID.test(sessionId)) return undefined;
    let text: string;
    try {
      text = await readFile(join(this.folder, `${sessionId}.json`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return { kind: 'found', sessionId, log: SessionLog.restore(JSON.parse(text) as unknown) };
    } catch (error) {
      return { kind: 'unreadable', sessionId, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Every saved session, newest first. */
  async list(): Promise<readonly SessionFile[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const ids = names.filter(name => name.endsWith('.json')).map(name => name.slice(0, -'.json'.length));
    const files = (await Promise.all(ids.map(id => this.read(id)))).flatMap(file => (file ? [file] : []));
    return files.sort((a, b) => createdAt(b).localeCompare(createdAt(a)));
  }
}

function createdAt(file: SessionFile): string {
  return file.kind === 'found' ? file.log.snapshot.context.createdAt : '';
}
