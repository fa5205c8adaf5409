import { STORED_SESSION_VERSION } from '../../../../src/core/session/storedSession';
import { strict as assert } from 'node:assert';
import { createActor } from 'xstate';
import type { SessionEvent } from '../../../../src/core/session/events';
import { sessionMachine } from '../../../../src/core/session/machine';
import { replaySession, restoreSession } from '../../../../src/core/session/replay';
import { storeSession } from '../../../../src/core/session/storedSession';
import { StoredSession } from '../../../../src/core/session/storedSession';
import { resumeSession } from '../../../support/liveSession';
import { startSession } from '../../../support/liveSession';
import { activeQuestion } from '../../../../src/core/session/selectors';
import { ev, fullCycle, INPUT } from './fixtures';

/** A whole session: clarification with a skip and a revisit, two debate cycles, conclusions, answer. */
const EVENTS: readonly SessionEvent[] = [
  ev.select(),
  ev.clarify(['q1', 'q2'], 2),
  ev.skip('as1', 3),
  ev.revisit(4),
  ev.answer('a2', 5),
  ev.answer('a1', 6, 'Reads only'),
  ...fullCycle(1, false),
  ...fullCycle(2, true),
  ev.conclusion('architect', 61),
  ev.finalAnswer(70),
];

/** JSON round trip: what survives workspace storage or ChatResult.metadata. */
function throughJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('event sourcing', () => {
  it('startSession fills in default limits and metadata and refuses invalid input', () => {
    const actor = startSession(INPUT);
    assert.deepStrictEqual(actor.getSnapshot().context.limits, {
      maxClarificationRounds: 3,
      debateCycleLimit: 10,
      adminMaxDebateCycles: 10,
    });
    assert.deepStrictEqual(actor.getSnapshot().context.metadata, {});
    actor.stop();
    assert.throws(() => startSession({ ...INPUT, limits: { maxClarificationRounds: 4 } }));
    assert.throws(() => startSession({ ...INPUT, createdAt: 'yesterday' }));
  });

  it('replaying the event log equals the live run, including events the guards refused', () => {
    const actor = startSession(INPUT);
    const refused = ev.answer('late', 90);
    for (const event of [...EVENTS.slice(0, 6), refused, ...EVENTS.slice(6)]) actor.send(event);
    const live = actor.getSnapshot();
    actor.stop();
    assert.equal(live.value, 'completed');
    const replayed = replaySession(INPUT, [...EVENTS.slice(0, 6), refused, ...EVENTS.slice(6)]);
    assert.equal(replayed.value, live.value);
    assert.deepStrictEqual(replayed.context, live.context);
  });

  it('the persisted snapshot restores exactly and the session continues from it', () => {
    const actor = startSession(INPUT);
    for (const event of EVENTS.slice(0, 3)) actor.send(event);
    const persisted = throughJson(actor.getPersistedSnapshot());
    actor.stop();

    const restored = createActor(sessionMachine, { snapshot: persisted, input: undefined }).start();
    assert.deepStrictEqual(throughJson(restored.getPersistedSnapshot()), persisted);
    assert.equal(restored.getSnapshot().value, 'clarifying');
    assert.equal(activeQuestion(restored.getSnapshot())?.questionId, 'q2');
    restored.stop();

    const resumed = resumeSession(replaySession(INPUT, EVENTS.slice(0, 3)));
    for (const event of EVENTS.slice(3)) resumed.send(event);
    assert.deepStrictEqual(resumed.getSnapshot().context, replaySession(INPUT, EVENTS).context);
    resumed.stop();
  });

  it('the stored form survives JSON and restores the same session', () => {
    const stored = throughJson(storeSession(INPUT, EVENTS));
    const result = restoreSession(stored);
    assert.ok(result.ok, result.ok ? '' : result.error);
    const expected = replaySession(INPUT, EVENTS);
    assert.equal(result.snapshot.value, expected.value);
    assert.deepStrictEqual(throughJson(result.snapshot.context), throughJson(expected.context));
    assert.deepStrictEqual(StoredSession.parse(stored).events.length, EVENTS.length);
  });

  it('a corrupt stored log gives a clear error instead of a crash', () => {
    const stored = storeSession(INPUT, EVENTS);
    // A newer format is not damage: it is reported as such (see test/unit/storage).
    const newer = restoreSession({ ...stored, version: STORED_SESSION_VERSION + 1 });
    assert.equal(!newer.ok && newer.reason, 'newer');
    assert.match(newer.ok ? '' : newer.error, /saved by a newer version of Council/);

    const unknownEvent = restoreSession({
      ...stored,
      events: [...stored.events, { type: 'EXPLODE', at: ev.cancel().at }],
    });
    assert.match(
      unknownEvent.ok ? '' : unknownEvent.error,
      new RegExp(`damaged:\\nevents\\[${EVENTS.length}\\]\\.type: Invalid discriminator`),
    );

    const badTime = restoreSession({ ...stored, events: [{ ...ev.debate(), at: 'tomorrow' }] });
    assert.match(badTime.ok ? '' : badTime.error, /events\[0\]\.at/);

    for (const garbage of [null, 'text', 42, [], { version: 1 }]) {
      const result = restoreSession(garbage);
      assert.equal(!result.ok && result.reason, 'damaged', JSON.stringify(garbage));
    }
  });
});
