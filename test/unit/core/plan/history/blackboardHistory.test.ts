import assert from 'node:assert/strict';
import { ZodError } from 'zod';
import { BlackboardHistory } from '../../../../../src/core/plan/history/blackboardHistory';
import { HistoryAppendRejected } from '../../../../../src/core/plan/history/historyStore';
import { InMemoryHistoryStore } from '../../../../support/inMemoryHistoryStore';
import { at, fixedClock, historyOf, invocation, sequentialIds } from './fixtures';

describe('BlackboardHistory', () => {
  it('records an invocation with a new id, the run id and its duration', async () => {
    const { snapshot } = await historyOf([invocation(1, { endedAt: at(1, 45), contextId: 'ctx-1' })]);
    assert.equal(snapshot.items.length, 1);
    const item = snapshot.items[0]!;
    assert.equal(item.itemId, 'item-1');
    assert.equal(item.runId, 'run-1');
    assert.equal(item.durationMs, 45_000);
    assert.deepEqual(item.upstreamContextIds, []);
  });

  it('refuses an invocation that ends before it starts, or does not fit the schema', async () => {
    const { history } = await historyOf([]);
    await assert.rejects(history.record(invocation(2, { endedAt: at(1) })), RangeError);
    await assert.rejects(history.record(invocation(2, { action: '' })), ZodError);
    assert.equal((await history.snapshot()).items.length, 0);
  });

  it('records failures with their error instead of an output', async () => {
    const { snapshot } = await historyOf([
      invocation(1, { outcome: { status: 'failed', error: { message: 'model refused', kind: 'blocked' } } }),
    ]);
    assert.deepEqual(snapshot.items[0]!.outcome, {
      status: 'failed',
      error: { message: 'model refused', kind: 'blocked' },
    });
  });

  it('reads its store once: later reads see what it recorded without re-reading (or re-validating) the store', async () => {
    const store = new InMemoryHistoryStore();
    await new BlackboardHistory(store, 'run-1', fixedClock, sequentialIds('earlier')).record(invocation(1));
    let loads = 0;
    const counted = Object.assign(Object.create(store) as InMemoryHistoryStore, {
      load: (runId: string) => {
        loads++;
        return store.load(runId);
      },
    });
    const history = new BlackboardHistory(counted, 'run-1', fixedClock, sequentialIds('item'));
    for (let n = 2; n <= 4; n++) {
      await history.record(invocation(n));
      assert.equal((await history.snapshot()).items.length, n, 'the earlier item and every one recorded since');
    }
    assert.equal(loads, 1);
    assert.deepEqual(
      (await history.snapshot()).items.map(item => item.itemId),
      (await store.load('run-1')).items.map(item => item.itemId),
    );
  });

  describe('is append-only', () => {
    it('rejects an item whose id already exists and keeps the original', async () => {
      const { store, snapshot } = await historyOf([invocation(1)]);
      const original = snapshot.items[0]!;
      await assert.rejects(store.append({ ...original, action: 'rewritten' }), HistoryAppendRejected);
      const reloaded = await store.load('run-1');
      assert.equal(reloaded.items.length, 1);
      assert.equal(reloaded.items[0]!.action, 'discover');
    });

    it('cannot be changed through the objects handed in or out', async () => {
      const store = new InMemoryHistoryStore();
      const history = new BlackboardHistory(store, 'run-1', fixedClock, sequentialIds('item'));
      const record = invocation(1, { input: { goal: 'original' } });
      const recorded = await history.record(record);
      (recorded.input as { goal: string }).goal = 'changed after append';
      const loaded = (await store.load('run-1')).items[0]!;
      assert.deepEqual(loaded.input, { goal: 'original' });
      assert.throws(() => {
        (loaded.input as { goal: string }).goal = 'changed after load';
      }, TypeError);
      assert.throws(() => {
        (loaded as { action: string }).action = 'changed';
      }, TypeError);
    });
  });

  it('keeps runs apart', async () => {
    const { store } = await historyOf([invocation(1)]);
    assert.deepEqual(await store.load('run-2'), { runId: 'run-2', items: [] });
  });
});
