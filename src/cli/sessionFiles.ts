import { access, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionLog } from '../core/council/sessionLog';
import { STORED_SESSION_VERSION, type StoredSession } from '../core/session/storedSession';

/*
 * Council sessions of the `council` command: one versioned JSON file each (the session's stored format, the one the
 * extension keeps), under `.council/sessions/<id>.json` in the project folder. A file that cannot be read back is
 * moved aside to `<id>.json.damaged-<time>` (kept, never saved over) and reported.
 */

const SESSIONS_FOLDER = join('.council', 'sessions');

/** A saved session read back, or why it cannot be: the words VS Code's store uses (found, missing, damaged, newer). */
export type SessionFile =
  | { readonly kind: 'found'; readonly sessionId: string; readonly log: SessionLog }
  | { readonly kind: 'missing'; readonly sessionId: string }
  | {
      readonly kind: 'damaged';
      readonly sessionId: string;
      readonly error: string;
      /** Where the damaged file was moved, so nothing is ever saved over it. */
      readonly keptAs: string;
    }
  /** Written by a newer Council: left where that version looks for it. */
  | { readonly kind: 'newer'; readonly sessionId: string; readonly error: string };

/** A session file that is there but cannot be used. */
export type UnusableSessionFile = Extract<SessionFile, { kind: 'damaged' | 'newer' }>;

const SAFE_ID = /^[A-Za-z0-9_-]+$/;

export class SessionFiles {
  private readonly folder: string;

  constructor(projectFolder: string) {
    this.folder = join(projectFolder, SESSIONS_FOLDER);
  }

  /** The folder the sessions are saved in. */
  get folderPath(): string {
    return this.folder;
  }

  /** The file a session is saved in. */
  pathOf(sessionId: string): string {
    return join(this.folder, `${sessionId}.json`);
  }

  /** Written whole to a temporary file, then renamed, so a crash never leaves half a session. */
  async save(stored: StoredSession): Promise<void> {
    const sessionId = stored.input.sessionId;
    await mkdir(this.folder, { recursive: true });
    const file = join(this.folder, `${sessionId}.json`);
    await writeFile(`${file}.tmp`, `${JSON.stringify(stored, null, 2)}\n`, 'utf8');
    await rename(`${file}.tmp`, file);
  }

  async read(sessionId: string): Promise<SessionFile> {
    if (!SAFE_ID.test(sessionId)) return { kind: 'missing', sessionId };
    let text: string;
    try {
      text = await readFile(join(this.folder, `${sessionId}.json`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing', sessionId };
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
      return { kind: 'found', sessionId, log: SessionLog.restore(parsed) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A newer Council's session is not damaged: it stays where that version looks for it.
      if (savedByNewerVersion(parsed)) return { kind: 'newer', sessionId, error: message };
      return { kind: 'damaged', sessionId, error: message, keptAs: await this.keepAside(sessionId) };
    }
  }

  /** Moves a damaged session file aside under a name no save uses (never over another file); returns its path. */
  private async keepAside(sessionId: string): Promise<string> {
    const file = join(this.folder, `${sessionId}.json`);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    for (let attempt = 0; ; attempt += 1) {
      const aside = `${file}.damaged-${stamp}${attempt > 0 ? `-${attempt}` : ''}`;
      try {
        await access(aside);
      } catch {
        await rename(file, aside);
        return aside;
      }
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
    const files = (await Promise.all(ids.map(id => this.read(id)))).filter(file => file.kind !== 'missing');
    return files.sort((a, b) => createdAt(b).localeCompare(createdAt(a)));
  }
}

function savedByNewerVersion(parsed: unknown): boolean {
  const version = typeof parsed === 'object' && parsed !== null ? (parsed as { version?: unknown }).version : undefined;
  return typeof version === 'number' && version > STORED_SESSION_VERSION;
}

function createdAt(file: SessionFile): string {
  return file.kind === 'found' ? file.log.snapshot.context.createdAt : '';
}

/** What the command says about a session file it cannot use, and where a damaged file was kept. */
export function unusableMessage(file: UnusableSessionFile): string {
  return file.kind === 'damaged'
    ? `Session ${file.sessionId} is damaged and cannot be read (${file.error}). The file was kept aside as ${file.keptAs} (nothing was overwritten); it cannot be continued.`
    : `Session ${file.sessionId} was saved by a newer version of Council (${file.error}); update Council to open it. The file is left as it is.`;
}
