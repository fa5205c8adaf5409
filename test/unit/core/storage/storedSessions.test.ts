import * as assert from 'node:assert/strict';
import { SessionLog } from '../../../../src/core/council/sessionLog';
import { chooseSessionCopy } from '../../../../src/core/session/sessionCopy';
import { activeAssumptions } from '../../../../src/core/session/selectors';
import { sessionView } from '../../../support/sessionViews';
import { restoreSession } from '../../../../src/core/session/replay';
import { validateSession } from '../../../support/sessionValidation/validateSession';
import { NewerVersionError } from '../../../../src/core/storage/versioned';
import {
  newerCouncilMetadata,
  newerSessionMetadata,
  readCouncilMetadata,
} from '../../../../src/vscode/chat/councilResult';
import { SESSION_KEY_PREFIX, SessionStore } from '../../../../src/vscode/storage/sessionStore';
import { builtInPersonas } from '../../../support/councilHarness';
import { MemoryMemento } from '../../../support/memoryMemento';
import { altered, storageFixture } from './fixtures';

const SESSION_ID = 'id-1';
const KEY = `${SESSION_KEY_PREFIX}${SESSION_ID}`;
const v1 = storageFixture('session.v1.json');
const v99 = storageFixture('session.v99.json');
const clock = { now: () => '2026-02-01T00:00:00.000Z' };

function storeWith(
  entries: Readonly<Record<string, unknown>>,
  capacity?: number,
): { store: SessionStore; memento: MemoryMemento } {
  const memento = MemoryMemento.of(entries);
  return { store: new SessionStore(memento, clock, capacity), memento };
}

describe('stored council sessions across versions', () => {
  it('a version 1 session from workspace storage is upgraded and replays to the session that was saved', async () => {
    const { store } = storeWith({ [KEY]: v1 });
    const loaded = store.load(SESSION_ID);
    assert.ok(loaded?.ok, loaded && !loaded.ok ? loaded.error : 'nothing loaded');
    assert.equal(loaded.migratedFrom, 1);
    assert.equal(loaded.stored.version, 2);
    const original = v1.session as {
      readonly input: unknown;
      readonly events: readonly { type: string; turn?: unknown }[];
    };
    assert.deepEqual(loaded.stored.input, original.input);
    // Format 2: a contribution's agreesWith and concerns are typed fields, no longer JSON text in its metadata.
    const spoken = (events: readonly { type: string; turn?: unknown }[]) =>
      events.filter(e => e.type === 'PERSONA_SPOKE').map(e => e.turn as Record<string, unknown>);
    const before = spoken(original.events);
    const after = spoken(loaded.stored.events);
    assert.equal(after.length, before.length);
    after.forEach((turn, i) => {
      const old = before[i]?.metadata as { agreesWith: string; concerns: string };
      assert.deepEqual(turn.agreesWith, JSON.parse(old.agreesWith));
      assert.deepEqual(turn.concerns, JSON.parse(old.concerns));
      assert.equal(turn.metadata, undefined, 'nothing else was in the metadata');
    });
    assert.ok(
      after.some(turn => (turn.concerns as string[]).length > 0),
      'the fixture has concerns to carry over',
    );
    // What the scripted session looked like when today's code saved it (see the fixtures README).
    const session = sessionView(loaded.snapshot);
    assert.equal(session.status, 'completed');
    assert.equal(session.requestText, 'How should we store user sessions?');
    assert.deepEqual(
      [
        session.questions.length,
        session.answers.length,
        activeAssumptions(loaded.snapshot).length,
        session.debateCycles,
        session.messageTurns.length,
      ],
      [2, 1, 1, 2, 13],
    );
    assert.ok(session.finalAnswer?.includes("The council's answer"));
    const personaNames = new Set((await builtInPersonas()).map(p => p.name));
    assert.deepEqual(validateSession(session, { personaNames }), []);
    assert.deepEqual(
      sessionView(SessionLog.restore(loaded.stored).snapshot),
      session,
      'the chat handler restores the same session',
    );
  });

  it('saving a restored version 1 session writes it as version 2, which loads to the same session', async () => {
    const { store, memento } = storeWith({ [KEY]: v1 });
    const loaded = store.load(SESSION_ID);
    assert.ok(loaded?.ok);
    await store.save(SessionLog.restore(loaded.stored).stored);
    assert.deepEqual(memento.get<{ session: unknown }>(KEY)?.session, loaded.stored);
    const reloaded = store.load(SESSION_ID);
    assert.ok(reloaded?.ok);
    assert.equal(reloaded.migratedFrom, undefined, 'version 2 is current');
    assert.deepEqual(sessionView(reloaded.snapshot), sessionView(loaded.snapshot));
  });

  it('a version 2 session (typed stances, requests used) loads as current and keeps what it spent', async () => {
    const { store } = storeWith({ [KEY]: storageFixture('session.v2.json') });
    const loaded = store.load(SESSION_ID);
    assert.ok(loaded?.ok, loaded && !loaded.ok ? loaded.error : 'nothing loaded');
    assert.equal(loaded.migratedFrom, undefined);
    assert.equal(SessionLog.restore(loaded.stored).requestsUsed, 8);
    const session = sessionView(loaded.snapshot);
    assert.equal(session.status, 'completed');
    assert.ok(
      session.messageTurns.some(t => t.messageType === 'discussion' && (t.agreesWith?.length ?? 0) > 0),
      'agreements are typed fields',
    );
    const personaNames = new Set((await builtInPersonas()).map(p => p.name));
    assert.deepEqual(validateSession(session, { personaNames }), []);
  });

  it('a session stored bare (before entries carried a save time) still loads', () => {
    const { store } = storeWith({ [KEY]: v1.session });
    assert.equal(store.load(SESSION_ID)?.ok, true);
  });

  it('the log in a version 1 chat response restores the same session when storage lost it', () => {
    const metadata = readCouncilMetadata({ metadata: storageFixture('chat-metadata.v1.json') });
    assert.ok(metadata?.stored);
    const copy = chooseSessionCopy(undefined, metadata.stored);
    const fromStorage = restoreSession(v1.session);
    assert.equal(copy?.damagedStorage, undefined, 'storage had no copy: nothing was damaged');
    const fromMetadata = copy?.result;
    assert.ok(fromMetadata?.ok && fromStorage.ok);
    assert.deepEqual(sessionView(fromMetadata.snapshot), sessionView(fromStorage.snapshot));
  });

  it('a damaged copy in storage is not replaced in silence by the chat’s older copy: the choice says why', () => {
    const { store } = storeWith({
      [KEY]: { updatedAt: '2026-01-01T00:00:00.000Z', session: { format: 2, events: 'x' } },
    });
    const damaged = store.load(SESSION_ID);
    assert.ok(damaged && !damaged.ok && damaged.reason !== 'newer');
    const copy = chooseSessionCopy(damaged, storageFixture('chat-metadata.v1.json').stored);
    assert.ok(copy?.result.ok, 'the chat copy is readable');
    assert.equal(copy.damagedStorage, damaged.error);
  });

  it('a session saved by a newer Council is reported with what to do, not as damage', () => {
    const { store } = storeWith({ [KEY]: v99 });
    const loaded = store.load(SESSION_ID);
    assert.ok(loaded && !loaded.ok && loaded.reason === 'newer');
    assert.ok(loaded.newer instanceof NewerVersionError);
    assert.equal(loaded.newer.version, 99);
    assert.equal(
      loaded.error,
      'The stored council session was saved by a newer version of Council (storage format 99; this version reads up to format 2). ' +
        'Update the Council extension to continue it, or start a new session with `/new`. The saved council session is kept unchanged.',
    );
    assert.deepEqual(store.list(), []);
  });

  it('never saves over or evicts a newer Council’s session', async () => {
    const { store, memento } = storeWith({ [KEY]: v99 }, 1);
    const older = restoreSession(v1.session);
    assert.ok(older.ok);
    await assert.rejects(store.save(older.stored), NewerVersionError);
    assert.deepEqual(memento.get(KEY), v99);
    // Capacity 1: two more saves evict each other, never the newer session.
    await store.save({ ...older.stored, input: { ...older.stored.input, sessionId: 'other-1' } });
    await store.save({ ...older.stored, input: { ...older.stored.input, sessionId: 'other-2' } });
    assert.deepEqual(memento.get(KEY), v99);
    assert.deepEqual(
      store.list().map(s => s.id),
      ['other-2'],
    );
  });

  it('prefers a newer copy in storage to an older copy in the chat response (continuing that would overwrite it)', () => {
    const { store } = storeWith({ [KEY]: v99 });
    const chosen = chooseSessionCopy(store.load(SESSION_ID), storageFixture('chat-metadata.v1.json').stored)?.result;
    assert.ok(chosen && !chosen.ok);
    assert.equal(chosen.reason, 'newer');
  });

  it('recognises a chat response written by a newer Council, and keeps pointing at its session', () => {
    const result = { metadata: storageFixture('chat-metadata.v99.json') };
    assert.equal(readCouncilMetadata(result), undefined);
    assert.deepEqual(newerCouncilMetadata(result), { version: 99, sessionId: SESSION_ID });
    assert.equal(newerCouncilMetadata({ metadata: storageFixture('chat-metadata.v1.json') }), undefined);
    assert.equal(newerCouncilMetadata({ metadata: { plan: 1 } }), undefined);
    assert.equal(readCouncilMetadata({ metadata: newerSessionMetadata(SESSION_ID) })?.sessionId, SESSION_ID);
  });

  it('a version 2 chat response (typed next steps) reads with its session and steps; version 1 still reads', () => {
    const v2 = readCouncilMetadata({ metadata: storageFixture('chat-metadata.v2.json') });
    assert.equal(v2?.sessionId, SESSION_ID);
    assert.deepEqual(
      v2?.next?.map(step => step.kind),
      ['planThis', 'assumptions', 'new'],
    );
    assert.equal(newerCouncilMetadata({ metadata: storageFixture('chat-metadata.v2.json') }), undefined);
    assert.equal(readCouncilMetadata({ metadata: storageFixture('chat-metadata.v1.json') })?.sessionId, SESSION_ID);
    assert.equal(
      readCouncilMetadata({ metadata: { council: 2, sessionId: SESSION_ID, actions: {} } }),
      undefined,
      'a version 2 response has its steps',
    );
  });

  it('a damaged session gives a clear error naming what is wrong, never a throw', () => {
    type Entry = { session: { input: Record<string, unknown>; events: Record<string, unknown>[] } };
    const cases: [unknown, RegExp][] = [
      [altered(v1 as Entry, e => void (e.session.events[3]!.type = 'EXPLODE')), /damaged[\s\S]*events\[3\]\.type/],
      [altered(v1 as Entry, e => void (e.session.events[0]!.at = 'tomorrow')), /damaged[\s\S]*events\[0\]\.at/],
      [altered(v1 as Entry, e => void delete e.session.input.requestText), /damaged[\s\S]*input\.requestText/],
      [
        { updatedAt: '2026-01-01T00:00:00.000Z', session: 'not a session' },
        /^The stored council session is damaged: it is not a record\.$/,
      ],
    ];
    for (const [entry, expected] of cases) {
      const loaded = storeWith({ [KEY]: entry }).store.load(SESSION_ID);
      assert.ok(loaded && !loaded.ok && loaded.reason === 'damaged', JSON.stringify(loaded).slice(0, 200));
      assert.match(loaded.error, expected);
    }
  });
});
