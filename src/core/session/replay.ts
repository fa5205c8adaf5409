import { z } from 'zod';
import { createActor, initialTransition, transition, type Actor, type Snapshot } from 'xstate';
import { SessionInput, type SessionInputInit } from './context';
import { SessionEvent } from './events';
import { sessionMachine, type SessionMachine, type SessionSnapshot } from './machine';

export { SessionInput, type SessionInputInit } from './context';

/** A live session actor. */
export type SessionActor = Actor<SessionMachine>;

/** Starts a live session; the input is validated and its defaults (limits, metadata) filled in. */
export function startSession(input: SessionInputInit): SessionActor {
  return createActor(sessionMachine, { input: SessionInput.parse(input) }).start();
}

/** Continues a session from a trusted snapshot (a replayed one, or `actor.getPersistedSnapshot()`). */
export function resumeSession(snapshot: SessionSnapshot | Snapshot<unknown>): SessionActor {
  // XState's types demand `input` for machines that take one; it is ignored when a snapshot is given.
  return createActor(sessionMachine, { snapshot, input: undefined }).start();
}

/**
 * Rebuilds a session from its input and event log without side effects. Events the machine
 * refused when they happened are refused again, so the result equals the live run.
 */
export function replaySession(input: SessionInputInit, events: readonly SessionEvent[]): SessionSnapshot {
  const [initial] = initialTransition(sessionMachine, SessionInput.parse(input));
  return events.reduce<SessionSnapshot>((snapshot, event) => transition(sessionMachine, snapshot, event)[0], initial);
}

/** The stored form of a session: its input and event log, versioned for future migrations. */
export const StoredSession = z.object({
  version: z.literal(1),
  input: SessionInput,
  events: z.array(SessionEvent),
});
export type StoredSession = z.infer<typeof StoredSession>;

/** The stored form of a session's input and events. */
export function storeSession(input: SessionInputInit, events: readonly SessionEvent[]): StoredSession {
  return { version: 1, input: SessionInput.parse(input), events: [...events] };
}

/** A restored session, or why the stored data could not be used. */
export type RestoreResult =
  | { readonly ok: true; readonly stored: StoredSession; readonly snapshot: SessionSnapshot }
  | { readonly ok: false; readonly error: string };

/** Validates stored data (e.g. from workspace storage) and replays it; corrupt data gives an error, never a throw. */
export function restoreSession(stored: unknown): RestoreResult {
  const parsed = StoredSession.safeParse(stored);
  if (!parsed.success) return { ok: false, error: `The stored council session is unreadable:\n${z.prettifyError(parsed.error)}` };
  try {
    return { ok: true, stored: parsed.data, snapshot: replaySession(parsed.data.input, parsed.data.events) };
  } catch (error) {
    return {
      ok: false,
      error: `The stored council session could not be replayed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
