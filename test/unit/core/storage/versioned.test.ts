import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { STORED_WORKFLOW_RUN_FORMAT } from '../../../../src/core/deepWork/storedWorkflowRun';
import { STORED_SESSION_FORMAT } from '../../../../src/core/session/storedSession';
import {
  NewerVersionError,
  newerVersionOf,
  readStored,
  type Migration,
  type StoredFormat,
} from '../../../../src/core/storage/versioned';
import { migrationGaps } from '../../../support/migrationGaps';

/* A made-up note format at version 3, to show the mechanics: v1 { text }, v2 { body }, v3 { body, tags }. */
const renameText: Migration = {
  from: 1,
  description: 'rename text to body',
  migrate: ({ text, ...rest }) => ({ ...rest, body: text }),
};
const addTags: Migration = { from: 2, description: 'add tags', migrate: record => ({ ...record, tags: [] }) };
const Note = z.object({ version: z.literal(3), body: z.string(), tags: z.array(z.string()) });
const NOTE_FORMAT: StoredFormat<z.infer<typeof Note>> = {
  noun: 'note',
  current: 3,
  migrations: [renameText, addTags],
  schema: Note,
  resume: 'open it',
  startOver: 'write a new note',
};

describe('versioned storage records', () => {
  it('upgrades an unversioned record as version 1 through every registered step', () => {
    assert.deepEqual(readStored(NOTE_FORMAT, { text: 'hello' }), {
      kind: 'current',
      value: { version: 3, body: 'hello', tags: [] },
      migratedFrom: 1,
    });
    assert.deepEqual(readStored(NOTE_FORMAT, { version: 2, body: 'hi' }), {
      kind: 'current',
      value: { version: 3, body: 'hi', tags: [] },
      migratedFrom: 2,
    });
    assert.deepEqual(readStored(NOTE_FORMAT, { version: 3, body: 'hi', tags: ['a'] }), {
      kind: 'current',
      value: { version: 3, body: 'hi', tags: ['a'] },
    });
  });

  it('reports a newer version with a sentence saying what to do, and leaves the record alone', () => {
    const record = Object.freeze({ version: 4, body: 'from the future', pinned: true });
    const read = readStored(NOTE_FORMAT, record);
    assert.equal(read.kind, 'newer');
    if (read.kind !== 'newer') return;
    assert.ok(read.error instanceof NewerVersionError);
    assert.equal(read.error.version, 4);
    assert.equal(read.error.supported, 3);
    assert.equal(
      read.error.message,
      'The stored note was saved by a newer version of Council (storage format 4; this version reads up to format 3). ' +
        'Update the Council extension to open it, or write a new note. The saved note is kept unchanged.',
    );
    assert.equal(newerVersionOf(NOTE_FORMAT, record)?.message, read.error.message);
  });

  it('treats a version it cannot interpret as unknown, never as old or damaged', () => {
    for (const version of ['1.1.0', 0, -1, 2.5, true]) {
      const read = readStored(NOTE_FORMAT, { version, body: 'x', tags: [] });
      assert.equal(read.kind, 'newer', String(version));
      assert.match(
        read.kind === 'newer' ? read.error.message : '',
        /storage format this version of Council does not know/,
      );
    }
    assert.equal(newerVersionOf(NOTE_FORMAT, { version: 3 }), undefined);
    assert.equal(newerVersionOf(NOTE_FORMAT, 'not a record'), undefined);
  });

  it('gives a clear error for damaged records and failed upgrades, without throwing', () => {
    for (const raw of [null, 'text', 42, [], undefined]) {
      assert.deepEqual(readStored(NOTE_FORMAT, raw), {
        kind: 'damaged',
        error: 'The stored note is damaged: it is not a record.',
      });
    }
    const badShape = readStored(NOTE_FORMAT, { version: 3, body: 7, tags: [] });
    assert.equal(badShape.kind, 'damaged');
    assert.match(badShape.kind === 'damaged' ? badShape.error : '', /^The stored note is damaged:\n[\s\S]*body/);

    const throwing: StoredFormat<z.infer<typeof Note>> = {
      ...NOTE_FORMAT,
      migrations: [
        {
          ...renameText,
          migrate: () => {
            throw new Error('text is missing');
          },
        },
        addTags,
      ],
    };
    assert.deepEqual(readStored(throwing, {}), {
      kind: 'damaged',
      error: 'The stored note could not be upgraded from format 1: text is missing',
    });
    const gap = readStored({ ...NOTE_FORMAT, migrations: [addTags] }, { text: 'x' });
    assert.deepEqual(gap, {
      kind: 'damaged',
      error: 'The stored note is in format 1, and no upgrade from it is registered.',
    });
  });

  it('finds missing, duplicate and stray migrations', () => {
    assert.deepEqual(migrationGaps(NOTE_FORMAT), []);
    assert.deepEqual(migrationGaps({ ...NOTE_FORMAT, migrations: [renameText, renameText, { ...addTags, from: 3 }] }), [
      'note: 2 migrations from format 1 (need exactly 1)',
      'note: 0 migrations from format 2 (need exactly 1)',
      'note: migration from format 3 is outside 1..2',
    ]);
  });

  it('every stored format of Council can upgrade each of its older versions', () => {
    for (const format of [STORED_SESSION_FORMAT, STORED_WORKFLOW_RUN_FORMAT]) {
      assert.deepEqual(migrationGaps(format), [], format.noun);
    }
  });
});
