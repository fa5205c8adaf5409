import assert from 'node:assert/strict';
import { z } from 'zod';
import { PayloadContractRegistry } from '../../../../../src/core/pipeline/handoff/contractRegistry';
import { MigrationRegistry } from '../../../../../src/core/pipeline/handoff/migrations';
import { compareSemVer, parseSchemaRef, parseSemVer } from '../../../../../src/core/pipeline/handoff/semver';
import { validateHandoff } from '../../../../../src/core/pipeline/handoff/validateHandoff';
import { context, envelope, makeRegistry, validPayload } from './fixtures';

const ref = (text: string) => {
  const parsed = parseSchemaRef(text);
  assert.ok(parsed, text);
  return parsed;
};

describe('payload schema versioning', () => {
  it('parses and compares semantic versions numerically, not as text', () => {
    assert.ok(compareSemVer(parseSemVer('1.10.0')!, parseSemVer('1.9.9')!) > 0);
    assert.equal(compareSemVer(parseSemVer('2.0.0')!, parseSemVer('2.0.0')!), 0);
    assert.ok(compareSemVer(parseSemVer('1.0.1')!, parseSemVer('2.0.0')!) < 0);
    assert.equal(parseSemVer('1.0'), undefined);
    assert.equal(parseSemVer('01.0.0'), undefined);
    assert.deepEqual(parseSchemaRef('discovery-report@1.2.3'), {
      name: 'discovery-report',
      version: { major: 1, minor: 2, patch: 3 },
    });
    assert.equal(parseSchemaRef('discovery-report'), undefined);
  });

  it('accepts an older minor or patch of the same major without a warning', () => {
    const verdict = validateHandoff(envelope({ payloadSchema: 'ticket-batch@2.0.7' }), makeRegistry(), context());
    assert.ok(verdict.ok);
    assert.deepEqual(verdict.warnings, []);
  });

  it('accepts a newer patch of the same major with a SCH-010 warning', () => {
    const verdict = validateHandoff(envelope({ payloadSchema: 'ticket-batch@2.1.1' }), makeRegistry(), context());
    assert.ok(verdict.ok);
    assert.deepEqual(
      verdict.warnings.map(w => w.error_code),
      ['SCH-010'],
    );
  });

  it('migrates an older major payload through the registered step and validates the result', () => {
    const v1 = {
      ...validPayload(),
      tickets: validPayload().tickets.map(({ title, ...rest }) => ({ ...rest, name: title })),
    };
    const verdict = validateHandoff(
      envelope({ payloadSchema: 'ticket-batch@1.4.0', payload: v1 }),
      makeRegistry(),
      context(),
    );
    assert.ok(verdict.ok, JSON.stringify(verdict));
    assert.deepEqual(verdict.envelope.payload, validPayload());
    assert.deepEqual(verdict.migrationsApplied, ['rename tickets[].name to tickets[].title']);
  });

  it('still validates a migrated payload against the current schema', () => {
    const v1 = { ...validPayload(), tickets: [{ ticketId: 'T-1', name: '' }] };
    const verdict = validateHandoff(
      envelope({ payloadSchema: 'ticket-batch@1.0.0', payload: v1 }),
      makeRegistry(),
      context(),
    );
    assert.ok(!verdict.ok);
    assert.deepEqual(
      verdict.errors.map(e => [e.error_code, e.path]),
      [['SCH-004', '$.payload.tickets[0].title']],
    );
  });

  it('rejects a major with no migration path, saying what to produce or register', () => {
    const registry = new PayloadContractRegistry().register({ schemaRef: 'ticket-batch@2.1.0', schema: z.unknown() });
    const verdict = validateHandoff(envelope({ payloadSchema: 'ticket-batch@1.0.0' }), registry, context());
    assert.ok(!verdict.ok);
    assert.equal(verdict.errors[0]!.error_code, 'SCH-008');
    assert.match(verdict.errors[0]!.message, /no migration registered for ticket-batch from major 1 to 2/);
    assert.match(verdict.errors[0]!.remediation, /ticket-batch@2\.1\.0.*register a migration/);
  });

  it('chains major steps and reports the first missing one', () => {
    const migrations = new MigrationRegistry()
      .register({
        schema: 'doc',
        fromMajor: 1,
        description: '1->2',
        migrate: p => ({ ...z.object({}).passthrough().parse(p), v2: true }),
      })
      .register({
        schema: 'doc',
        fromMajor: 2,
        description: '2->3',
        migrate: p => ({ ...z.object({}).passthrough().parse(p), v3: true }),
      });
    const migrated = migrations.migrate({ a: 1 }, ref('doc@1.0.0'), ref('doc@3.0.0'));
    assert.deepEqual(migrated, { kind: 'migrated', payload: { a: 1, v2: true, v3: true }, applied: ['1->2', '2->3'] });
    const missing = migrations.migrate({ a: 1 }, ref('doc@1.0.0'), ref('doc@4.0.0'));
    assert.equal(missing.kind, 'missing');
    assert.ok(missing.kind === 'missing' && /from major 3 to 4/.test(missing.reason));
    assert.equal(migrations.migrate({}, ref('doc@3.0.0'), ref('doc@2.0.0')).kind, 'missing');
  });

  it('refuses duplicate registrations and malformed schema refs', () => {
    const registry = makeRegistry();
    assert.throws(
      () => registry.register({ schemaRef: 'ticket-batch@3.0.0', schema: z.unknown() }),
      /already registered/,
    );
    assert.throws(() => registry.register({ schemaRef: 'Ticket Batch', schema: z.unknown() }), /Malformed/);
    assert.throws(
      () =>
        registry.migrations.register({ schema: 'ticket-batch', fromMajor: 1, description: 'again', migrate: p => p }),
      /already registered/,
    );
  });
});
