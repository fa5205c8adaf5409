import assert from 'node:assert/strict';
import { readPayloadVersion, readPayloadVersions, SCHEMA_VERSION } from '../../../../../src/core/plan/schemas/version';

describe('payload schema versions read back (spec 003 §7)', () => {
  it('accepts the same major: the current version as it is, a newer minor as it is (a minor only adds)', () => {
    const current = { schemaVersion: SCHEMA_VERSION, resultId: 'x' };
    assert.deepEqual(readPayloadVersion(current), { kind: 'accepted', payload: current });
    const newerMinor = { schemaVersion: '1.7.2', resultId: 'x' };
    assert.deepEqual(readPayloadVersion(newerMinor), { kind: 'accepted', payload: newerMinor });
  });

  it('migrates an older minor where a migration exists (1.0.0 -> 1.1.0 -> 1.2.0), and reads one without a migration as it is', () => {
    assert.deepEqual(readPayloadVersion({ schemaVersion: '1.0.0', resultId: 'x' }), {
      kind: 'accepted',
      payload: { schemaVersion: '1.2.0', resultId: 'x' },
    });
    assert.deepEqual(readPayloadVersion({ schemaVersion: '1.0.0', resultId: 'x' }, '1.1.0'), {
      kind: 'accepted',
      payload: { schemaVersion: '1.1.0', resultId: 'x' },
    });
    assert.deepEqual(readPayloadVersion({ schemaVersion: '1.0.4' }), {
      kind: 'accepted',
      payload: { schemaVersion: '1.0.4' },
    });
  });

  it('refuses a newer major, saying a newer Council wrote it; refuses an older major and a non-version', () => {
    assert.deepEqual(readPayloadVersion({ schemaVersion: '9.0.0' }), {
      kind: 'newer',
      message: `It holds payloads of schema 9.0.0, written by a newer version of Council (this one reads payload schema 1.x up to ${SCHEMA_VERSION}).`,
    });
    assert.equal(readPayloadVersion({ schemaVersion: '0.9.0' }).kind, 'unsupported');
    assert.match(
      (readPayloadVersion({ schemaVersion: 'one' }) as { message: string }).message,
      /payload schema version "one" is not a version/,
    );
  });

  it('warns about a deprecated line from its warning version on, never before (§7.3: announced, warned, removed)', () => {
    const old = { schemaVersion: '1.0.0' };
    assert.equal(readPayloadVersion(old, '1.1.0').kind, 'accepted');
    assert.equal((readPayloadVersion(old, '1.1.0') as { warning?: string }).warning, undefined, 'announced only');
    assert.equal(
      (readPayloadVersion(old, '1.3.0') as { warning?: string }).warning,
      'Payload schema 1.0.x is deprecated (announced in 1.1.0); Council 2.0.0 will not read it. Finish or resume this run before then.',
    );
  });

  it('reads every payload nested in a value, each warning once, the first refusal for all', () => {
    const board = { stages: { a: { result: { schemaVersion: '1.0.0' } }, b: [{ schemaVersion: '1.0.0', inner: 1 }] } };
    const read = readPayloadVersions(board, '1.3.0');
    assert.ok('value' in read);
    assert.deepEqual(read.value, {
      stages: { a: { result: { schemaVersion: '1.2.0' } }, b: [{ schemaVersion: '1.2.0', inner: 1 }] },
    });
    assert.equal(read.warnings.length, 1);
    const refused = readPayloadVersions({ stages: [{ schemaVersion: '1.0.0' }, { schemaVersion: '2.0.0' }] });
    assert.ok('kind' in refused && refused.kind === 'newer');
  });
});
