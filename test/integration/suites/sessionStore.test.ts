import type * as vscode from 'vscode';
import * as assert from '../assert';
import type { Clock } from '../../../src/core/clock';
import { storeSession } from '../../../src/core/session/storedSession';
import type { StoredSession } from '../../../src/core/session/storedSession';
import { SESSION_KEY_PREFIX, SESSION_STORE_CAPACITY, SessionStore } from '../../../src/vscode/storage/sessionStore';
import { fixture } from '../harness';

/** A clock that ticks one second per reading, so save order is unambiguous. */
function tickingClock(): Clock {
  let second = 0;
  return { now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, second++)).toISOString() };
}

const AT = '2025-01-01T00:00:00.000Z';

/** A session that only started (`created`). */
function createdSession(id: string, requestText = `Request ${id}`): StoredSession {
  return storeSession({ sessionId: id, userId: 'user-1', requestText, createdAt: AT }, []);
}

/** A session whose personas were picked and whose debate began (`debating`). */
function debatingSession(id: string): StoredSession {
  return storeSession({ sessionId: id, userId: 'user-1', requestText: 'Design a cache for the API', createdAt: AT }, [
    {
      type: 'PERSONAS_SELECTED',
      selection: {
        selectionId: 'selection-1',
        requestClassification: 'architecture',
        reason: 'a design question',
        userOverride: false,
      },
      participants: [
        { participantId: 'software-architect', type: 'persona', name: 'Software Architect' },
        { participantId: 'senior-developer', type: 'persona', name: 'Senior Developer' },
      ],
      at: AT,
    },
    { type: 'DEBATE_REQUESTED', at: AT },
  ]);
}

async function clearSessions(memento: vscode.Memento): Promise<void> {
  for (const key of memento.keys().filter(key => key.startsWith(SESSION_KEY_PREFIX)))
    await memento.update(key, undefined);
}

describe('session store over a real workspaceState', () => {
  let memento: vscode.Memento;
  let store: SessionStore;

  beforeEach(async () => {
    memento = (await fixture()).workspaceState;
    await clearSessions(memento);
    store = new SessionStore(memento, tickingClock());
  });
  after(async () => clearSessions(memento));

  it('saves a session and loads it back replayed', async () => {
    const stored = debatingSession('s-1');
    await store.save(stored);
    const loaded = store.load('s-1');
    assert.ok(loaded?.ok, loaded && !loaded.ok ? loaded.error : 'nothing loaded');
    assert.deepEqual(loaded.stored, stored);
    assert.equal(loaded.snapshot.value, 'debating');
    assert.equal(store.load('missing'), undefined);
  });

  it('lists sessions newest first with request text, replayed status and save time', async () => {
    await store.save(createdSession('s-1', 'First request'));
    await store.save(debatingSession('s-2'));
    await store.save(createdSession('s-1', 'First request, saved again'));
    assert.deepEqual(store.list(), [
      {
        id: 's-1',
        requestText: 'First request, saved again',
        status: 'created',
        updatedAt: '2025-01-01T00:00:02.000Z',
      },
      {
        id: 's-2',
        requestText: 'Design a cache for the API',
        status: 'debating',
        updatedAt: '2025-01-01T00:00:01.000Z',
      },
    ]);
    const latest = store.latest();
    assert.ok(latest?.ok);
    assert.equal(latest.stored.input.sessionId, 's-1');
  });

  it('deletes a session', async () => {
    await store.save(createdSession('s-1'));
    await store.delete('s-1');
    await store.delete('never-stored');
    assert.equal(store.load('s-1'), undefined);
    assert.deepEqual(store.list(), []);
    assert.equal(store.latest(), undefined);
  });

  it(`keeps at most ${SESSION_STORE_CAPACITY} sessions, evicting the least recently updated`, async () => {
    for (let n = 0; n < SESSION_STORE_CAPACITY; n++) await store.save(createdSession(`s-${n}`));
    await store.save(createdSession('s-0')); // s-0 is now the most recent; s-1 is the oldest
    await store.save(createdSession('s-new'));
    const ids = store.list().map(summary => summary.id);
    assert.equal(ids.length, SESSION_STORE_CAPACITY);
    assert.equal(ids[0], 's-new');
    assert.equal(ids[1], 's-0');
    assert.ok(!ids.includes('s-1'), 's-1 should have been evicted');
    assert.equal(store.load('s-1'), undefined);
  });

  it('a store opened later sees the same sessions (what a reloaded window does)', async () => {
    await store.save(debatingSession('s-1'));
    const reopened = new SessionStore((await fixture()).workspaceState);
    assert.equal(reopened.load('s-1')?.ok, true);
  });

  it('reports corrupt data as { ok: false } and never throws', async () => {
    await store.save(createdSession('s-good'));
    await memento.update(`${SESSION_KEY_PREFIX}s-wrong-version`, {
      updatedAt: '2025-01-02T00:00:00.000Z',
      session: { version: 2 },
    });
    await memento.update(`${SESSION_KEY_PREFIX}s-garbage`, 'not a session');
    const replayFails = debatingSession('s-bad-event');
    await memento.update(`${SESSION_KEY_PREFIX}s-bad-event`, {
      updatedAt: '2025-01-03T00:00:00.000Z',
      session: { ...replayFails, events: [{ type: 'NO_SUCH_EVENT', at: AT }] },
    });

    for (const id of ['s-wrong-version', 's-garbage', 's-bad-event']) {
      const loaded = store.load(id);
      assert.ok(loaded && !loaded.ok, `${id} should not load`);
      assert.match(loaded.error, /stored council session/);
    }
    const latest = store.latest();
    assert.ok(latest && !latest.ok, 'the newest entry is the corrupt one');
    assert.deepEqual(
      store.list().map(summary => summary.id),
      ['s-good'],
    );
  });
});
