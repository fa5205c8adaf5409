import type * as vscode from 'vscode';
import type { SessionLog } from '../../core/council/sessionLog';
import { sessionNextSteps } from '../../core/council/sessionNextSteps';
import type { NextStep } from '../../core/nextSteps';
import type { StoredSession } from '../../core/session/storedSession';

/**
 * The format version of the metadata below: 2 carries the typed next steps (`next`); 1 carried an `actions` record,
 * and is still read for its session. A response with any other marker came from a newer Council.
 */
const COUNCIL_METADATA_VERSION = 2 as const;
const READ_VERSIONS: readonly unknown[] = [1, COUNCIL_METADATA_VERSION];

/** What a council chat response remembers (in `ChatResult.metadata`) for the next turn and its follow-ups. */
export interface CouncilResultMetadata {
  readonly council: 1 | 2;
  /** The thread's session; absent after `/new` without a request. */
  readonly sessionId?: string;
  readonly state?: string;
  /**
   * The session's event log, so the thread continues even if workspace storage was cleared. Every response
   * keeps its metadata in the chat history, so a long debate's log is left to workspace storage alone.
   */
  readonly stored?: StoredSession;
  /**
   * What the user can do next, decided in the core (its buttons). Responses of an earlier version of this format
   * kept an `actions` record instead; they are read for their session only.
   */
  readonly next?: readonly NextStep[];
}

/** Largest event log (JSON characters) copied into a response's metadata. */
export const MAX_METADATA_LOG_CHARS = 64_000;

function compactLog(stored: StoredSession): StoredSession | undefined {
  return JSON.stringify(stored).length <= MAX_METADATA_LOG_CHARS ? stored : undefined;
}

/** Without a session (or with one this Council cannot read), only a new session. */
const ONLY_NEW: readonly NextStep[] = [{ kind: 'new' }];

/**
 * Metadata for a response about `log` (or no session). `failed`: the turn stopped early and can be retried.
 * `noFurtherQuestions`: the council was just asked for more questions and had none, so that is not offered again.
 */
export function councilMetadata(
  log: SessionLog | undefined,
  failed = false,
  noFurtherQuestions = false,
): CouncilResultMetadata {
  if (!log) return { council: COUNCIL_METADATA_VERSION, next: ONLY_NEW };
  return {
    council: COUNCIL_METADATA_VERSION,
    sessionId: log.sessionId,
    state: log.state,
    stored: compactLog(log.stored),
    next: sessionNextSteps(log.snapshot, { stopped: failed, noFurtherQuestions }),
  };
}

/**
 * Metadata for a response that did not continue the thread's session because a newer Council saved it: it
 * still names the session, so the next turn reports it again instead of silently starting over.
 */
export function newerSessionMetadata(sessionId: string | undefined): CouncilResultMetadata {
  return sessionId
    ? { council: COUNCIL_METADATA_VERSION, sessionId, next: [{ kind: 'assumptions', sessionId }, ...ONLY_NEW] }
    : { council: COUNCIL_METADATA_VERSION, next: ONLY_NEW };
}

/**
 * The metadata format version and session id of a council response from a Council newer than this one
 * (`council` is neither 1 nor 2), `undefined` for any other result.
 */
export function newerCouncilMetadata(
  result: vscode.ChatResult | undefined,
): { readonly version: unknown; readonly sessionId?: string } | undefined {
  const metadata = result?.metadata as { readonly council?: unknown; readonly sessionId?: unknown } | undefined;
  if (metadata?.council === undefined || READ_VERSIONS.includes(metadata.council)) return undefined;
  return typeof metadata.sessionId === 'string'
    ? { version: metadata.council, sessionId: metadata.sessionId }
    : { version: metadata.council };
}

/** The metadata of a council response, if `result` is one. */
export function readCouncilMetadata(result: vscode.ChatResult | undefined): CouncilResultMetadata | undefined {
  const metadata = result?.metadata as (Partial<CouncilResultMetadata> & { readonly actions?: unknown }) | undefined;
  return (metadata?.council === COUNCIL_METADATA_VERSION && Array.isArray(metadata.next)) ||
    (metadata?.council === 1 && typeof metadata.actions === 'object')
    ? (metadata as CouncilResultMetadata)
    : undefined;
}
