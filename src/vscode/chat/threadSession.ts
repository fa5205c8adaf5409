import * as vscode from 'vscode';
import { SessionLog } from '../../core/council/sessionLog';
import { chooseSessionCopy } from '../../core/session/sessionCopy';
import { STORED_SESSION_FORMAT } from '../../core/session/storedSession';
import { newerVersionError, type NewerVersionError } from '../../core/storage/versioned';
import { newerCouncilMetadata, readCouncilMetadata } from './councilResult';
import type { SessionStore } from '../storage/sessionStore';

/**
 * The chat thread's current council session (or one named by id), or why it could not be loaded: one reading for
 * every door: found, missing (nothing stored under the id), damaged, or saved by a newer Council.
 */
export type ThreadSession =
  | { readonly kind: 'none' }
  | { readonly kind: 'found'; readonly log: SessionLog }
  | { readonly kind: 'missing'; readonly sessionId: string }
  /**
   * The stored copy cannot be read (`error`). When the chat keeps an older readable one (`older`) it is never
   * continued silently: the user chooses (go on from the older copy, export the damaged one, or start new).
   */
  | { readonly kind: 'damaged'; readonly sessionId: string; readonly error: string; readonly older?: SessionLog }
  /** Saved by a newer Council: tell the user `error.message`; never continue or save over it. */
  | { readonly kind: 'newer'; readonly sessionId: string | undefined; readonly error: NewerVersionError };

/**
 * Finds the session this chat thread is in: the last council response in the thread names it.
 * Workspace storage holds the newest copy (written after every step, so it survives a Stop or a
 * reload mid-turn); the copy in the response's metadata is the fallback. Two threads never share one.
 */
export function threadSession(
  history: vscode.ChatContext['history'],
  participantId: string,
  store: SessionStore,
): ThreadSession {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (!(turn instanceof vscode.ChatResponseTurn) || turn.participant !== participantId) continue;
    const newer = newerCouncilMetadata(turn.result);
    if (newer)
      return {
        kind: 'newer',
        sessionId: newer.sessionId,
        error: newerVersionError(STORED_SESSION_FORMAT, newer.version),
      };
    const metadata = readCouncilMetadata(turn.result);
    if (!metadata) continue;
    if (!metadata.sessionId) return { kind: 'none' };
    const copy = chooseSessionCopy(store.load(metadata.sessionId), metadata.stored);
    if (!copy) return { kind: 'missing', sessionId: metadata.sessionId };
    const restored = copy.result;
    if (!restored.ok) {
      return restored.reason === 'newer'
        ? { kind: 'newer', sessionId: metadata.sessionId, error: restored.newer }
        : { kind: 'damaged', sessionId: metadata.sessionId, error: restored.error };
    }
    try {
      const log = SessionLog.restore(restored.stored);
      return copy.damagedStorage === undefined
        ? { kind: 'found', log }
        : { kind: 'damaged', sessionId: metadata.sessionId, error: copy.damagedStorage, older: log };
    } catch (error) {
      return {
        kind: 'damaged',
        sessionId: metadata.sessionId,
        error: error instanceof Error ? error.message : String(error),
      };
    }
  }
  return { kind: 'none' };
}

/** A stored session by id (e.g. one `council_deliberate` ran), restored, or why it cannot be opened. */
export function storedSession(store: SessionStore, sessionId: string): ThreadSession {
  const restored = store.load(sessionId);
  if (!restored) return { kind: 'missing', sessionId };
  if (!restored.ok) {
    return restored.reason === 'newer'
      ? { kind: 'newer', sessionId, error: restored.newer }
      : { kind: 'damaged', sessionId, error: restored.error };
  }
  try {
    return { kind: 'found', log: SessionLog.restore(restored.stored) };
  } catch (error) {
    return { kind: 'damaged', sessionId, error: error instanceof Error ? error.message : String(error) };
  }
}
