import { z } from 'zod';

/**
 * Version of the pipeline's payload schemas (semver, spec 003 §7.1): a major bump for a breaking change (a field
 * removed, retyped or renamed), a minor one for an addition, a patch for wording. A payload read back (a resumed
 * run's records) is compared with it by `readPayloadVersion`. Regenerate `schemas/` after any change.
 */
export const SCHEMA_VERSION = '1.2.0';

/** SemVer 2.0.0: `MAJOR.MINOR.PATCH` with optional pre-release and build parts. */
const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** A semantic version string such as `1.0.0`. */
export const SemVer = z
  .string()
  .regex(SEMVER_PATTERN, { message: 'must be a semantic version such as 1.0.0' })
  .describe(`Semantic version of the payload schema; use "${SCHEMA_VERSION}".`);

/** Upgrades a payload of an older version of the current major to the next version (spec 003 §7.2). */
interface PayloadMigration {
  readonly from: string;
  readonly to: string;
  /** What changed, for the docs and tests. */
  readonly description: string;
  /** Reshapes the payload; the reader stamps `to` on it. */
  readonly migrate: (payload: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>;
}

const PAYLOAD_MIGRATIONS: readonly PayloadMigration[] = [
  {
    from: '1.0.0',
    to: '1.1.0',
    description:
      'The published documents changed (descriptions, line-number maxima, unique items); no record field did.',
    migrate: payload => payload,
  },
  {
    from: '1.1.0',
    to: '1.2.0',
    description:
      "A collector's decision may be `proceed` (spec 001 PROCEED); a run's board may hold a context routed to a stage. An addition: no stored field changed.",
    migrate: payload => payload,
  },
];

/**
 * Deprecation policy (spec 003 §7.3): a minor line is announced deprecated 2 minor versions before it is deprecated
 * (`announcedIn`), warned about at runtime for 1 minor version (`warnFrom`: reading such a payload says so), and no
 * longer read from the next major (`removedIn`). Announced lines are listed in `schemas/README.md` too.
 */
export interface PayloadDeprecation {
  /** `MAJOR.MINOR`, e.g. `1.0`. */
  readonly line: string;
  readonly announcedIn: string;
  readonly warnFrom: string;
  readonly removedIn: string;
}

const PAYLOAD_DEPRECATIONS: readonly PayloadDeprecation[] = [
  { line: '1.0', announcedIn: '1.1.0', warnFrom: '1.3.0', removedIn: '2.0.0' },
];

/** What comparing a payload's `schemaVersion` with this Council's gave. */
export type PayloadVersionRead =
  /** Readable: the same major; `payload` is migrated (and restamped) where a migration exists; `warning` per §7.3. */
  | { readonly kind: 'accepted'; readonly payload: Readonly<Record<string, unknown>>; readonly warning?: string }
  /** A newer major: never read. */
  | { readonly kind: 'newer'; readonly message: string }
  /** An older major, or not a version: no migration exists. */
  | { readonly kind: 'unsupported'; readonly message: string };

function parts(version: string): [number, number, number] | undefined {
  const match = SEMVER_PATTERN.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compare(a: readonly number[], b: readonly number[]): number {
  return (a[0]! - b[0]!) * 1e6 + (a[1]! - b[1]!) * 1e3 + (a[2]! - b[2]!);
}

/**
 * Compares a payload read back with `current` (spec 003 §7): the same major is accepted (a minor only adds), an older
 * minor migrated one step at a time where a migration exists, a newer major refused with a message that says a newer
 * Council wrote it, an older major refused. A deprecated line is warned about.
 */
export function readPayloadVersion(
  payload: Readonly<Record<string, unknown>>,
  current: string = SCHEMA_VERSION,
  deprecations: readonly PayloadDeprecation[] = PAYLOAD_DEPRECATIONS,
): PayloadVersionRead {
  const stored = payload.schemaVersion;
  const version = typeof stored === 'string' ? parts(stored) : undefined;
  const ours = parts(current)!;
  if (!version)
    return { kind: 'unsupported', message: `Its payload schema version ${JSON.stringify(stored)} is not a version.` };
  if (version[0] < ours[0])
    return {
      kind: 'unsupported',
      message: `It holds payloads of schema ${String(stored)}, an older major version than this Council reads (${ours[0]}.x); no migration from it exists.`,
    };
  if (version[0] > ours[0])
    return {
      kind: 'newer',
      message: `It holds payloads of schema ${String(stored)}, written by a newer version of Council (this one reads payload schema ${ours[0]}.x up to ${current}).`,
    };
  const line = `${version[0]}.${version[1]}`;
  const deprecation = deprecations.find(d => d.line === line && compare(ours, parts(d.warnFrom)!) >= 0);
  // One step at a time, never past this Council's version.
  const next = (from: unknown) => PAYLOAD_MIGRATIONS.find(m => m.from === from && compare(parts(m.to)!, ours) <= 0);
  let migrated = payload;
  for (let step = next(migrated.schemaVersion); step; step = next(migrated.schemaVersion))
    migrated = { ...step.migrate(migrated), schemaVersion: step.to };
  return {
    kind: 'accepted',
    payload: migrated,
    ...(deprecation
      ? {
          warning: `Payload schema ${line}.x is deprecated (announced in ${deprecation.announcedIn}); Council ${deprecation.removedIn} will not read it. Finish or resume this run before then.`,
        }
      : {}),
  };
}

/**
 * Every payload (an object with a `schemaVersion`) inside `value` read through `readPayloadVersion`: the value with
 * each migrated, its deprecation warnings (each once), or the first refusal.
 */
export function readPayloadVersions(
  value: unknown,
  current: string = SCHEMA_VERSION,
):
  | { readonly value: unknown; readonly warnings: readonly string[] }
  | Exclude<PayloadVersionRead, { kind: 'accepted' }> {
  const warnings = new Set<string>();
  let refused: Exclude<PayloadVersionRead, { kind: 'accepted' }> | undefined;
  const walk = (node: unknown): unknown => {
    if (refused || typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return node.map(walk);
    let record = Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, walk(inner)]));
    if ('schemaVersion' in record) {
      const read = readPayloadVersion(record, current);
      if (read.kind !== 'accepted') refused ??= read;
      else {
        record = { ...read.payload };
        if (read.warning) warnings.add(read.warning);
      }
    }
    return record;
  };
  const walked = walk(value);
  return refused ?? { value: walked, warnings: [...warnings] };
}
