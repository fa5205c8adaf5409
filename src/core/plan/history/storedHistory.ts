import { z } from 'zod';
import { readStored, type Migration, type StoredFormat, type StoredRead } from '../../storage/versioned';

/** The storage format version this code writes for a run's history record. */
export const STORED_HISTORY_VERSION = 1;

/**
 * Upgrades from each older history format, one step per version. Format 1 is what Council stored before the
 * record carried a version (the same shape), so there is nothing to upgrade yet.
 */
const STORED_HISTORY_MIGRATIONS: readonly Migration[] = [];

/**
 * A run's history as stored: raw items, each validated when loaded (one bad entry is skipped, not the whole
 * history), and kept raw when appending so nothing already stored is rewritten. (Notes, which no agent was ever
 * offered a way to write, are no longer kept: a record that has the empty list reads the same.)
 */
export const StoredHistory = z.object({
  version: z.literal(STORED_HISTORY_VERSION),
  items: z.array(z.unknown()).default([]),
});
/** A run's history as stored. */
export type StoredHistory = z.infer<typeof StoredHistory>;

/** How a run's history is stored. */
export const STORED_HISTORY_FORMAT: StoredFormat<StoredHistory> = {
  noun: 'plan run history',
  current: STORED_HISTORY_VERSION,
  migrations: STORED_HISTORY_MIGRATIONS,
  schema: StoredHistory,
  resume: 'resume the run',
  startOver: 'start a new run with `/plan <goal>`',
};

/** Migrates and validates a stored history record. */
export function readStoredHistory(raw: unknown): StoredRead<StoredHistory> {
  return readStored(STORED_HISTORY_FORMAT, raw);
}
