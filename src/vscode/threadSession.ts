import * as vscode from 'vscode';
import { SessionLog } from '../core/council/sessionLog';
import { readCouncilMetadata } from './councilResult';
import type { SessionStore } from './sessionStore';

/** The chat thread's current council session, or why it could not be loaded. */
export type ThreadSession =
  | { readonly kind: 'none' }
  | { readonly kind: 'found'; readonly log: SessionLog }
  | { readonly kind: 'unreadable'; readonly sessionId: string; readonly error: string };

/**
 * Finds the session this chat thread is in: the last council response in the thread names it.
 * Workspace storage holds the newest copy (written after every step, so it survives a Stop or a
 * reload mid-turn); the copy in the response's metadata is the fallback. Two threads never share one.
 */
export function threadSession(history: vscode.ChatContext['history'], participantId: string, store: SessionStore): ThreadSession {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (!(turn instanceof vscode.ChatResponseTurn) || turn.participant !== participantId) continue;
    const metadata = readCouncilMetadata(turn.result);
    if (!metadata) continue;
    if (!metadata.sessionId) return { kind: 'none' };
    const saved = store.load(metadata.sessionId);
    const stored = saved?.ok ? saved.stored : metadata.stored;
    if (!stored) return { kind: 'unreadable', sessionId: metadata.sessionId, error: saved && !saved.ok ? saved.error : 'The session was not found in storage.' };
    try {
      return { kind: 'found', log: SessionLog.restore(stored) };
    } catch (error) {
      return { kind: 'unreadable', sessionId: metadata.sessionId, error: error instanceof Error ? error.message : String(error) };
    }
  }
  return { kind: 'none' };
}
