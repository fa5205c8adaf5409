import type { StoredFormat } from '../../src/core/storage/versioned';

const isKnownVersion = (version: number): boolean => Number.isInteger(version) && version >= 1;

/** Problems with a format's migration list (a missing or duplicate step); empty when every older version upgrades. */
export function migrationGaps(format: StoredFormat<unknown>): string[] {
  const gaps: string[] = [];
  for (let from = 1; from < format.current; from++) {
    const steps = format.migrations.filter(migration => migration.from === from).length;
    if (steps !== 1) gaps.push(`${format.noun}: ${steps} migrations from format ${from} (need exactly 1)`);
  }
  for (const migration of format.migrations) {
    if (!isKnownVersion(migration.from) || migration.from >= format.current)
      gaps.push(`${format.noun}: migration from format ${migration.from} is outside 1..${format.current - 1}`);
  }
  return gaps;
}
