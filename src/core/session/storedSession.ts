import { z } from 'zod';
import { readStored, type Migration, type StoredFormat, type StoredRead } from '../storage/versioned';
import { SessionInput, type SessionInputInit } from './context';
import { SessionEvent } from './events';

/** The storage format version this code writes for a session (workspace storage and chat-result metadata). */
export const STORED_SESSION_VERSION = 1;

/**
 * Upgrades from each older stored-session format, one step per version (`from` 1 gives version 2, …).
 * Format 1 is the first, so there is nothing to upgrade yet. To add format 2: write the step
 * `{ from: 1, description, migrate }` here, bump `STORED_SESSION_VERSION` and change `StoredSession`.
 */
export const STORED_SESSION_MIGRATIONS: readonly Migration[] = [];

/** The stored form of a session: its input and event log, under a format version. */
export const StoredSession = z.object({
  version: z.literal(STORED_SESSION_VERSION),
  input: SessionInput,
  events: z.array(SessionEvent),
  /** Model requests the session has spent over all its turns, repairs included (absent in older stores: 0). */
  requestsUsed: z.number().int().min(0).optional(),
});
export type StoredSession = z.infer<typeof StoredSession>;

/** How a session is stored; the event log replays to the session, so the log alone is versioned. */
export const STORED_SESSION_FORMAT: StoredFormat<StoredSession> = {
  noun: 'council session',
  versionField: 'version',
  current: STORED_SESSION_VERSION,
  migrations: STORED_SESSION_MIGRATIONS,
  schema: StoredSession,
  resume: 'continue it',
  startOver: 'start a new session with `/new`',
};

/** The stored form of a session's input and events. */
export function storeSession(input: SessionInputInit, events: readonly SessionEvent[], requestsUsed = 0): StoredSession {
  return { version: STORED_SESSION_VERSION, input: SessionInput.parse(input), events: [...events], ...(requestsUsed > 0 ? { requestsUsed } : {}) };
}

/** Migrates and validates a stored session without replaying it. */
export function readStoredSession(raw: unknown): StoredRead<StoredSession> {
  return readStored(STORED_SESSION_FORMAT, raw);
}
