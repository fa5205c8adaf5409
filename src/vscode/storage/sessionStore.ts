import type * as vscode from 'vscode';
import { systemClock, type Clock } from '../../core/clock';
import type { SessionStatus } from '../../core/session/enums';
import { restoreSession, type RestoreResult } from '../../core/session/replay';
import type { StoredSession } from '../../core/session/storedSession';
import { STORED_SESSION_FORMAT } from '../../core/session/storedSession';
import { newerVersionOf } from '../../core/storage/versioned';
import type { DebateHistoryStore } from '../../core/council/ports';
import { mementoDebateHistory } from './debateHistoryStore';

/** How many sessions a workspace keeps; saving one more evicts the least recently updated. */
export const SESSION_STORE_CAPACITY = 50;

/** Every stored session's key starts with this; nothing else in workspace state does. */

export const SESSION_KEY_PREFIX = 'council.session/';

/** Where a damaged copy is kept when the user goes on from an older one: exportable, never loaded or evicted. */
const SET_ASIDE_PREFIX = 'council.damagedSession/';

/** One row of `SessionStore.list()`. */
export interface StoredSessionSummary {
  readonly id: string;
  readonly requestText: string;
  /** The replayed machine's state. */
  readonly status: SessionStatus;
  /** When the store last saved it (ISO-8601). */
  readonly updatedAt: string;
}

/** The part of `vscode.Memento` the store uses (`context.workspaceState`). */
export type SessionMemento = Pick<vscode.Memento, 'get' | 'update' | 'keys'>;

/** What is written under each key: the stored session as given, and when it was saved. */
interface Entry {
  readonly updatedAt: string;
  readonly session: unknown;
}

/**
 * Council sessions in workspace storage, one key per session id, so a later chat turn or a reloaded
 * window can continue a session. Reads migrate, validate and replay (`restoreSession`): damaged data, or a
 * session saved by a newer Council, comes back as `{ ok: false, reason, error }`, never as a throw. A newer
 * Council's session is never overwritten or evicted. Writes are serialised so eviction sees every save.
 */
export class SessionStore {
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly memento: SessionMemento,
    private readonly clock: Clock = systemClock,
    private readonly capacity: number = SESSION_STORE_CAPACITY,
  ) {}

  /** The workspace's last finished debates, kept beside its sessions (the expected forecast follows them). */
  debateHistory(): DebateHistoryStore {
    return mementoDebateHistory(this.memento);
  }

  /**
   * Saves (or replaces) the session under its id, stamps it, and evicts beyond the capacity.
   * Rejects with NewerVersionError when a newer Council's copy is stored under that id.
   */
  save(stored: StoredSession): Promise<void> {
    return this.enqueue(async () => {
      const key = keyOf(stored.input.sessionId);
      const newer = newerVersionOf(STORED_SESSION_FORMAT, sessionIn(this.memento.get<unknown>(key)));
      if (newer) throw newer;
      const entry: Entry = { updatedAt: this.clock.now(), session: stored };
      await this.memento.update(key, entry);
      // A newer Council's sessions are its own to keep: never evicted here.
      const entries = this.entries().filter(
        ({ id }) => !newerVersionOf(STORED_SESSION_FORMAT, sessionIn(this.memento.get<unknown>(keyOf(id)))),
      );
      for (const { id } of entries.slice(0, Math.max(0, entries.length - this.capacity)))
        await this.memento.update(keyOf(id), undefined);
    });
  }

  /** The session with this id restored, `undefined` when none is stored. */
  load(sessionId: string): RestoreResult | undefined {
    const raw = this.memento.get<unknown>(keyOf(sessionId));
    return raw === undefined ? undefined : restoreSession(sessionIn(raw));
  }

  /** The most recently saved session restored (even if it turns out unreadable), `undefined` when none. */
  latest(): RestoreResult | undefined {
    const newest = this.entries().at(-1);
    return newest && this.load(newest.id);
  }

  /** Readable sessions, most recently updated first; damaged ones are left out (and evicted in time). */
  list(): readonly StoredSessionSummary[] {
    const summaries: StoredSessionSummary[] = [];
    for (const { id, updatedAt } of this.entries().reverse()) {
      const result = this.load(id);
      if (!result?.ok) continue;
      summaries.push({ id, requestText: result.stored.input.requestText, status: result.snapshot.value, updatedAt });
    }
    return summaries;
  }

  /** What is stored for this session as it is (set-aside damaged copy first), for export; undefined when nothing. */
  rawCopy(sessionId: string): unknown {
    return (
      this.memento.get<unknown>(`${SET_ASIDE_PREFIX}${sessionId}`) ??
      sessionIn(this.memento.get<unknown>(keyOf(sessionId)))
    );
  }

  /** Moves the stored copy aside (kept for export) so an older copy can take its place. */
  setAside(sessionId: string): Promise<void> {
    return this.enqueue(async () => {
      const raw = this.memento.get<unknown>(keyOf(sessionId));
      if (raw === undefined) return;
      await this.memento.update(`${SET_ASIDE_PREFIX}${sessionId}`, sessionIn(raw));
      await this.memento.update(keyOf(sessionId), undefined);
    });
  }

  /** Removes the session; nothing happens when it is not stored. */
  delete(sessionId: string): Promise<void> {
    return this.enqueue(async () => {
      await this.memento.update(keyOf(sessionId), undefined);
    });
  }

  /** Stored ids with their save time, least recently updated first; entries without a time sort first. */
  private entries(): { readonly id: string; readonly updatedAt: string }[] {
    return this.memento
      .keys()
      .filter(key => key.startsWith(SESSION_KEY_PREFIX))
      .map(key => {
        const raw = this.memento.get<unknown>(key);
        return { id: key.slice(SESSION_KEY_PREFIX.length), updatedAt: isEntry(raw) ? raw.updatedAt : '' };
      })
      .sort((a, b) => compare(savedAt(a.updatedAt), savedAt(b.updatedAt)));
  }

  private enqueue(write: () => Promise<void>): Promise<void> {
    const next = this.writes.then(write);
    this.writes = next.catch(() => undefined);
    return next;
  }
}

function keyOf(sessionId: string): string {
  return `${SESSION_KEY_PREFIX}${sessionId}`;
}

function savedAt(updatedAt: string): number {
  const time = Date.parse(updatedAt);
  return Number.isNaN(time) ? -Infinity : time;
}

function compare(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** The stored session in a workspace-state value: entries wrap it; the earliest saves stored it bare. */
function sessionIn(raw: unknown): unknown {
  return isEntry(raw) ? raw.session : raw;
}

function isEntry(raw: unknown): raw is Entry {
  return (
    typeof raw === 'object' &&
    raw !== null &&
    typeof (raw as { updatedAt?: unknown }).updatedAt === 'string' &&
    'session' in raw
  );
}
