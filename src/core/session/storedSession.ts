import { z } from 'zod';
import {
  readStored,
  type Migration,
  type StoredFormat,
  type StoredRead,
  type StoredRecord,
} from '../storage/versioned';
import { SessionInput, type SessionInputInit } from './context';
import { SpendingLedgerSchema, type LedgerLine } from '../llm/spending/ledger';
import { SessionEvent } from './events';

/** The storage format version this code writes for a session (workspace storage and chat-result metadata). */
export const STORED_SESSION_VERSION = 2;

/** A list of strings kept as JSON text in format 1's turn metadata; anything else reads as empty. */
function jsonStringList(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Format 1 → 2: a contribution's `agreesWith` and `concerns` move from JSON text in its metadata to typed fields. */
function typedStances(record: StoredRecord): StoredRecord {
  const events = Array.isArray(record.events) ? record.events : [];
  return {
    ...record,
    events: events.map(event => {
      if (!isRecord(event) || event.type !== 'PERSONA_SPOKE' || !isRecord(event.turn) || !isRecord(event.turn.metadata))
        return event;
      const { agreesWith, concerns, ...metadata } = event.turn.metadata;
      const { metadata: _old, ...turn } = event.turn;
      const agreed = jsonStringList(agreesWith);
      const concerned = jsonStringList(concerns);
      return {
        ...event,
        turn: {
          ...turn,
          ...(agreed ? { agreesWith: agreed } : {}),
          ...(concerned ? { concerns: concerned } : {}),
          ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
        },
      };
    }),
  };
}

/**
 * Upgrades from each older stored-session format, one step per version (`from` 1 gives version 2, …).
 * To add format N+1: write the step `{ from: N, description, migrate }` here, bump `STORED_SESSION_VERSION`
 * and change `StoredSession`.
 */
const STORED_SESSION_MIGRATIONS: readonly Migration[] = [
  {
    from: 1,
    description: "contributions' agreesWith and concerns become typed fields (were JSON text in metadata)",
    migrate: typedStances,
  },
];

/** The stored form of a session: its input and event log, under a format version. */
export const StoredSession = z.object({
  version: z.literal(STORED_SESSION_VERSION),
  input: SessionInput,
  events: z.array(SessionEvent),
  /** Model requests the session has spent over all its turns, repairs included (absent in older stores: 0). */
  requestsUsed: z.number().int().min(0).optional(),
  /** What each persona spent in each step: requests, tokens, estimated credits (absent in older stores). */
  spending: SpendingLedgerSchema.optional(),
});
export type StoredSession = z.infer<typeof StoredSession>;

/** How a session is stored; the event log replays to the session, so the log alone is versioned. */
export const STORED_SESSION_FORMAT: StoredFormat<StoredSession> = {
  noun: 'council session',
  current: STORED_SESSION_VERSION,
  migrations: STORED_SESSION_MIGRATIONS,
  schema: StoredSession,
  resume: 'continue it',
  startOver: 'start a new session with `/new`',
};

/** The stored form of a session's input and events. */
export function storeSession(
  input: SessionInputInit,
  events: readonly SessionEvent[],
  requestsUsed = 0,
  spending: readonly LedgerLine[] = [],
): StoredSession {
  return {
    version: STORED_SESSION_VERSION,
    input: SessionInput.parse(input),
    events: [...events],
    ...(requestsUsed > 0 ? { requestsUsed } : {}),
    ...(spending.length > 0 ? { spending: spending.map(line => ({ ...line })) } : {}),
  };
}

/** Migrates and validates a stored session without replaying it. */
export function readStoredSession(raw: unknown): StoredRead<StoredSession> {
  return readStored(STORED_SESSION_FORMAT, raw);
}
