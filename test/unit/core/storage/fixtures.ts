import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../support/nodePersonaSource';

/** A stored-record fixture from test/fixtures/storage (see its README), parsed. */
export function storageFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'storage', name), 'utf8')) as Record<
    string,
    unknown
  >;
}

/** A deep copy with `change` applied, for corrupting a fixture. */
export function altered<T>(value: T, change: (copy: T) => void): T {
  const copy = structuredClone(value);
  change(copy);
  return copy;
}
