import assert from 'node:assert/strict';
import { BlackboardHistory, HISTORY_KEY } from '../../../../../src/core/plan/history/blackboardHistory';
import { RunHistory } from '../../../../../src/core/plan/history/historyItem';
import { at, blackboardOf, historyOf, invocation, sequentialIds } from './fixtures';

describe('BlackboardHistory', () => {
  it('records an invocation with a new id and its duration', () => {
    const { snapshot } = historyOf([invocation(1, { endedAt: at(1, 45), contextId: 'ctx-1' })]);
    assert.equal(snapshot.items.length, 1);
    const item = snapshot.items[0]!;
    assert.equal(item.itemId, 'item-1');
    assert.equal(item.durationMs, 45_000);
    assert.equal(item.contextId, 'ctx-1');
  });

  it('counts an attempt whose clock was set back as taking no time', () => {
    const { history } = historyOf([]);
    assert.equal(history.record(invocation(2, { endedAt: at(1) })).durationMs, 0);
  });

  it('records failures with their error instead of an output', () => {
    const { snapshot } = historyOf([
      invocation(1, { outcome: { status: 'failed', error: { message: 'model refused', kind: 'blocked' } } }),
    ]);
    assert.deepEqual(snapshot.items[0]!.outcome, {
      status: 'failed',
      error: { message: 'model refused', kind: 'blocked' },
    });
  });

  it('lives on the run state: each attempt is on the blackboard as it is recorded, as stored runs validate it', () => {
    const { blackboard, history } = historyOf([invocation(1)]);
    history.record(invocation(2));
    const kept = blackboard.board[HISTORY_KEY];
    assert.deepEqual(
      (kept as { itemId: string }[]).map(item => item.itemId),
      ['item-1', 'item-2'],
    );
    assert.ok(RunHistory.safeParse(JSON.parse(JSON.stringify(kept))).success, 'plain JSON that reads back');
  });

  it("continues a saved run's history (after Stop or a reload) where it ended", () => {
    const first = historyOf([invocation(1), invocation(2)]);
    const saved = blackboardOf(structuredClone(first.blackboard.board));
    const resumed = new BlackboardHistory(saved, sequentialIds('later'));
    resumed.record(invocation(3));
    assert.deepEqual(
      resumed.snapshot().items.map(item => item.itemId),
      ['item-1', 'item-2', 'later-1'],
    );
  });

  it('two stages started together on one board append to one history', () => {
    const blackboard = blackboardOf();
    const first = new BlackboardHistory(blackboard, sequentialIds('a'));
    const second = new BlackboardHistory(blackboard, sequentialIds('b'));
    first.record(invocation(1));
    second.record(invocation(2));
    assert.deepEqual(
      (blackboard.board[HISTORY_KEY] as { itemId: string }[]).map(item => item.itemId),
      ['a-1', 'b-1'],
    );
  });

  it('hands out snapshots that later records do not change', () => {
    const { history, snapshot } = historyOf([invocation(1)]);
    history.record(invocation(2));
    assert.equal(snapshot.items.length, 1);
    assert.equal(history.snapshot().items.length, 2);
  });
});
