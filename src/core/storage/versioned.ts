import { z } from 'zod';
import { describeIssues } from '../zodIssues';

/*
 * Versioned records in storage (spec 003 §7, integer major versions only): every record names its format
 * version in one field; a record without it predates versioning and is version 1. Older versions are
 * upgraded one step at a time by registered migrations, then validated against the current schema.
 * A version this code does not know (newer, or not a version at all) is reported, never dropped:
 * the caller must leave such a record as it is.
 */

/** A stored record as JSON gives it back. */
export type StoredRecord = Readonly<Record<string, unknown>>;

/** Upgrades a record of version `from` to `from + 1`. The reader stamps the new version; the step only reshapes. */
export interface Migration {
  readonly from: number;
  /** What changed, for logs and tests. */
  readonly description: string;
  /** May throw when the record cannot be upgraded; that reads as a damaged record. */
  readonly migrate: (record: StoredRecord) => StoredRecord;
}

/** Every stored format keeps its version number in this field. */
const VERSION_FIELD = 'version';

/** How one kind of record is stored: its version field, current version, migrations and current schema. */
export interface StoredFormat<T> {
  /** What the user calls the record, e.g. `council session`. */
  readonly noun: string;
  /** The version this code writes. Adding a version: bump it, add one migration, update the schema. */
  readonly current: number;
  /** One step per version below `current`. */
  readonly migrations: readonly Migration[];
  /** The current version's schema; it sees the record after migration, with the version field stamped. */
  readonly schema: z.ZodType<T>;
  /** How the user continues the record, after "Update the Council extension to", e.g. `continue it`. */
  readonly resume: string;
  /** The other way forward, after "or", e.g. "start a new session with `/new`". */
  readonly startOver: string;
}

/** A record saved by a newer Council (or in a format this one does not know); the message is for the user. */
export class NewerVersionError extends Error {
  constructor(
    /** The record's version field as stored. */
    readonly version: unknown,
    /** The newest version this code reads. */
    readonly supported: number,
    message: string,
  ) {
    super(message);
    this.name = 'NewerVersionError';
  }
}

/** What reading a stored record gave. */
export type StoredRead<T> =
  /**
   * Readable; `migratedFrom` is the version it was stored in when that was older than the current one; `warnings`
   * what the user should know before it is no longer read (spec 003 §7.3 deprecations).
   */
  | {
      readonly kind: 'current';
      readonly value: T;
      readonly migratedFrom?: number;
      readonly warnings?: readonly string[];
    }
  /** Saved by a newer Council or in an unknown format: show `error.message`, keep the record untouched. */
  | { readonly kind: 'newer'; readonly error: NewerVersionError }
  /** Damaged or not this kind of record; `error` says what is wrong. */
  | { readonly kind: 'damaged'; readonly error: string };

/** Reads a stored record: find its version, migrate it to the current one, validate. Never throws. */
export function readStored<T>(format: StoredFormat<T>, raw: unknown): StoredRead<T> {
  if (!isRecord(raw)) return { kind: 'damaged', error: `The stored ${format.noun} is damaged: it is not a record.` };
  const version = versionOf(format, raw);
  if (!isKnownVersion(version) || version > format.current)
    return { kind: 'newer', error: newerVersionError(format, version) };
  let record: StoredRecord = raw;
  for (let from = version; from < format.current; from++) {
    const step = format.migrations.find(migration => migration.from === from);
    if (!step)
      return {
        kind: 'damaged',
        error: `The stored ${format.noun} is in format ${from}, and no upgrade from it is registered.`,
      };
    try {
      record = { ...step.migrate(record), [VERSION_FIELD]: from + 1 };
    } catch (error) {
      return {
        kind: 'damaged',
        error: `The stored ${format.noun} could not be upgraded from format ${from}: ${messageOf(error)}`,
      };
    }
  }
  // An unversioned record is version 1: stamp it so the schema sees one shape.
  const stamped = { ...record, [VERSION_FIELD]: format.current };
  const parsed = format.schema.safeParse(stamped);
  if (!parsed.success)
    return {
      kind: 'damaged',
      error: `The stored ${format.noun} is damaged:\n${describeIssues(parsed.error.issues, '(root)', { schema: format.schema, data: stamped }).join('\n')}`,
    };
  return version < format.current
    ? { kind: 'current', value: parsed.data, migratedFrom: version }
    : { kind: 'current', value: parsed.data };
}

/**
 * The report for `raw` when it is a record this code must not read or overwrite (a newer or unknown version),
 * else `undefined`. Cheap: reads the version field only.
 */
export function newerVersionOf(format: StoredFormat<unknown>, raw: unknown): NewerVersionError | undefined {
  if (!isRecord(raw)) return undefined;
  const version = versionOf(format, raw);
  return isKnownVersion(version) && version <= format.current ? undefined : newerVersionError(format, version);
}

/** The user-facing report for a record of `version` (newer, or not a version this code knows). */
export function newerVersionError(format: StoredFormat<unknown>, version: unknown): NewerVersionError {
  const how = `Update the Council extension to ${format.resume}, or ${format.startOver}. The saved ${format.noun} is kept unchanged.`;
  const message = isKnownVersion(version)
    ? `The stored ${format.noun} was saved by a newer version of Council (storage format ${version}; this version reads up to format ${format.current}). ${how}`
    : `The stored ${format.noun} was saved in a storage format this version of Council does not know (${JSON.stringify(version) ?? String(version)}). ${how}`;
  return new NewerVersionError(version, format.current, message);
}

function versionOf(format: StoredFormat<unknown>, record: StoredRecord): unknown {
  return record[VERSION_FIELD] ?? 1;
}

function isKnownVersion(version: unknown): version is number {
  return typeof version === 'number' && Number.isInteger(version) && version >= 1;
}

function isRecord(raw: unknown): raw is StoredRecord {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
