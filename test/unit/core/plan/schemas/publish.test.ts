import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PIPELINE_SCHEMAS } from '../../../../../src/core/plan/schemas/catalog';
import { buildPublishedSchemas } from '../../../../../src/core/plan/schemas/publish';
import { SCHEMA_VERSION, SemVer } from '../../../../../src/core/plan/schemas/version';
import { SELF_DESCRIBING_FIELDS, undescribedProperties } from '../../../../support/jsonSchemaChecks';

const PUBLISHED_DIR = join(__dirname, '..', '..', '..', '..', '..', 'schemas', 'pipeline');

type Json = { readonly [key: string]: unknown };
const parsed = (): Map<string, Json> =>
  new Map(buildPublishedSchemas().map(file => [file.file, JSON.parse(file.content) as Json]));

/** `$ref` targets reachable from `name` in `$defs`; throws on a cycle (a recursive type). */
function assertNoRecursion(defs: Json, file: string): void {
  const refsIn = (value: unknown): string[] => {
    const text = JSON.stringify(value);
    return [...text.matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)].map(match => match[1] ?? '');
  };
  const visit = (name: string, path: readonly string[]): void => {
    assert.ok(!path.includes(name), `${file}: recursive definition ${[...path, name].join(' -> ')}`);
    for (const next of refsIn(defs[name])) visit(next, [...path, name]);
  };
  for (const name of Object.keys(defs)) visit(name, []);
}

describe('published JSON Schemas', () => {
  it('schemas/pipeline matches the zod schemas (run `npx tsx scripts/generateSchemas.ts` if this fails)', () => {
    const built = buildPublishedSchemas();
    const onDisk = readdirSync(PUBLISHED_DIR).sort();
    assert.deepEqual(onDisk, built.map(file => file.file).sort(), 'published files differ from the catalog');
    for (const file of built) {
      const current = readFileSync(join(PUBLISHED_DIR, file.file), 'utf8');
      assert.ok(current === file.content, `schemas/pipeline/${file.file} is stale`);
    }
  });

  it('gives every schema a unique $id carrying the schema version', () => {
    const ids = [...parsed().entries()]
      .filter(([file]) => file !== 'index.json')
      .map(([, json]) => String(json['$id']));
    assert.equal(new Set(ids).size, PIPELINE_SCHEMAS.length);
    for (const id of ids) assert.ok(id.endsWith(`:${SCHEMA_VERSION}`), id);
  });

  it('indexes every schema by name, file and version', () => {
    const index = parsed().get('index.json') as { schemas: { name: string; file: string; version: string }[] };
    assert.deepEqual(
      index.schemas.map(entry => [entry.name, entry.file, entry.version]),
      PIPELINE_SCHEMAS.map(entry => [entry.name, `${entry.name}.schema.json`, SCHEMA_VERSION]),
    );
    assert.ok(SemVer.safeParse(SCHEMA_VERSION).success);
  });

  it('drafts are ready for a tool call: one inline object, every field described, listed or named plainly', () => {
    const drafts = PIPELINE_SCHEMAS.filter(entry => entry.role === 'draft');
    assert.ok(drafts.length >= 6);
    for (const entry of drafts) {
      const json = parsed().get(`${entry.name}.schema.json`)!;
      assert.equal(json['type'], 'object', entry.name);
      assert.ok(!JSON.stringify(json).includes('$ref'), `${entry.name} has $ref`);
      assert.deepEqual(undescribedProperties(json, SELF_DESCRIBING_FIELDS), [], `${entry.name} has undescribed fields`);
    }
  });

  it('no schema is recursive', () => {
    for (const [file, json] of parsed()) {
      assert.ok(!JSON.stringify(json).includes('"$ref":"#"'), file);
      assertNoRecursion((json['$defs'] ?? {}) as Json, file);
    }
  });
});
