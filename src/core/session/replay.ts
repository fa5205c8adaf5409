import { initialTransition, transition } from 'xstate';
import { SessionInput, type SessionInputInit } from './context';
import { SessionEvent } from './events';
import { sessionMachine, type SessionSnapshot } from './machine';
import type { NewerVersionError } from '../storage/versioned';
import { readStoredSession, type StoredSession } from './storedSession';

/**
 * Rebuilds a session from its input and event log without side effects. Events the machine
 * refused when they happened are refused again, so the result equals the live run.
 */
export function replaySession(input: SessionInputInit, events: readonly SessionEvent[]): SessionSnapshot {
  const [initial] = initialTransition(sessionMachine, SessionInput.parse(input));
  return events.reduce<SessionSnapshot>((snapshot, event) => transition(sessionMachine, snapshot, event)[0], initial);
}

/** A restored session, or why the stored data could not be used. */
export type RestoreResult =
  | {
      readonly ok: true;
      readonly stored: StoredSession;
      readonly snapshot: SessionSnapshot;
      readonly migratedFrom?: number;
    }
  /** Damaged data; `error` says what is wrong. */
  | { readonly ok: false; readonly reason: 'damaged'; readonly error: string }
  /** Saved by a newer Council: show `error` (it is `newer.message`), and never save over the stored copy. */
  | { readonly ok: false; readonly reason: 'newer'; readonly error: string; readonly newer: NewerVersionError };

/** Migrates, validates and replays stored data (e.g. from workspace storage); bad data gives an error, never a throw. */
export function restoreSession(stored: unknown): RestoreResult {
  const read = readStoredSession(stored);
  if (read.kind === 'newer') return { ok: false, reason: 'newer', error: read.error.message, newer: read.error };
  if (read.kind === 'damaged') return { ok: false, reason: 'damaged', error: read.error };
  const { value, migratedFrom } = read;
  try {
    const snapshot = replaySession(value.input, value.events);
    return migratedFrom === undefined
      ? { ok: true, stored: value, snapshot }
      : { ok: true, stored: value, snapshot, migratedFrom };
  } catch (error) {
    return {
      ok: false,
      reason: 'damaged',
      error: `The stored council session could not be replayed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
