import { createActor, type Actor, type Snapshot } from 'xstate';
import { SessionInput, type SessionInputInit } from '../../src/core/session/context';
import { sessionMachine, type SessionMachine, type SessionSnapshot } from '../../src/core/session/machine';

/*
 * A live XState actor of the session machine: the oracle replay is checked against (the extension itself only
 * replays and transitions; it never runs an actor).
 */

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
