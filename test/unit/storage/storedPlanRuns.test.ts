import * as assert from 'node:assert/strict';
import { PipelineRunState } from '../../../src/core/pipeline/run/runState';
import { NewerVersionError } from '../../../src/core/storage/versioned';
import { HISTORY_KEY_PREFIX, MementoHistoryStore } from '../../../src/vscode/plan/mementoHistoryStore';
import { PLAN_RUN_CAPACITY, PlanRunStore, RUN_KEY_PREFIX } from '../../../src/vscode/plan/planRunStore';
import { MemoryMemento } from '../../support/memoryMemento';
import { altered, storageFixture } from './fixtures';

const RUN_ID = 'wf-00000000-0000-4000-8000-000000000001';
const RUN_KEY = RUN_KEY_PREFIX + RUN_ID;
const HISTORY_KEY = HISTORY_KEY_PREFIX + RUN_ID;
const v1 = storageFixture('plan-run.v1.json');
const v99 = storageFixture('plan-run.v99.json');
const now = () => '2026-02-01T00:00:00.000Z';

function runsWith(entries: Readonly<Record<string, unknown>>): { runs: PlanRunStore; memento: MemoryMemento } {
  const memento = MemoryMemento.of(entries);
  return { runs: new PlanRunStore(memento, now), memento };
}

/** Another run's state, from the v1 fixture. */
function otherRun(n: number): PipelineRunState {
  return { ...PipelineRunState.parse(v1.state), runId: `wf-00000000-0000-4000-8000-${String(n).padStart(12, '0')}` };
}

describe('stored /plan runs across versions', () => {
  it('an unversioned run (as Council stored it before versions) reads as version 1, resumable as saved', () => {
    const { runs } = runsWith({ [RUN_KEY]: v1 });
    const read = runs.read(RUN_ID);
    assert.equal(read.kind, 'found');
    if (read.kind !== 'found') return;
    assert.deepEqual(read.run, { version: 1, ...v1 });
    assert.deepEqual(read.run.state, PipelineRunState.parse(v1.state), 'the run state is valid for runPipeline({ resume })');
    assert.equal(read.run.state.nextStage, null);
    assert.deepEqual(runs.load(RUN_ID), read.run);
    assert.deepEqual(runs.latest(), read);
    assert.deepEqual(runs.episodes(5).map(e => [e.runId, e.outcome]), [[RUN_ID, 'completed']]);
  });

  it('saving it back stamps version 1 and changes nothing else', async () => {
    const { runs, memento } = runsWith({ [RUN_KEY]: v1 });
    const run = runs.load(RUN_ID);
    assert.ok(run);
    await runs.save(run.state, run.status);
    assert.deepEqual(memento.get(RUN_KEY), { ...v1, version: 1, updatedAt: now() });
  });

  it('a run saved by a newer Council is reported with what to do, and skipped by load and list', () => {
    const { runs } = runsWith({ [RUN_KEY]: v99 });
    const read = runs.read(RUN_ID);
    assert.ok(read.kind === 'newer');
    assert.ok(read.error instanceof NewerVersionError);
    assert.equal(
      read.error.message,
      'The stored plan run was saved by a newer version of Council (storage format 99; this version reads up to format 1). ' +
        'Update the Council extension to resume it, or start a new run with `/plan <goal>`. The saved plan run is kept unchanged.',
    );
    assert.equal(runs.load(RUN_ID), undefined);
    assert.deepEqual(runs.list(), []);
    assert.equal(runs.latest().kind, 'newer', 'the newest run is the one a bare /plan continue would resume');
    assert.deepEqual(runs.read('wf-none'), { kind: 'missing' });
  });

  it('never saves over or evicts a newer Council’s run', async () => {
    const { runs, memento } = runsWith({ [RUN_KEY]: v99 });
    await assert.rejects(runs.save(PipelineRunState.parse(v1.state), 'paused'), NewerVersionError);
    assert.deepEqual(memento.get(RUN_KEY), v99);
    for (let n = 2; n <= PLAN_RUN_CAPACITY + 2; n++) await runs.save(otherRun(n), 'completed');
    assert.deepEqual(memento.get(RUN_KEY), v99);
    assert.equal(runs.list().length, PLAN_RUN_CAPACITY);
  });

  it('a damaged run gives a clear error naming what is wrong', () => {
    const cases: [unknown, RegExp][] = [
      [altered(v1, run => void (run.status = 'exploded')), /^The stored plan run is unreadable:\n[\s\S]*status/],
      [altered(v1 as { state: Record<string, unknown> }, run => void delete run.state.goal), /unreadable[\s\S]*state\.goal/],
      [altered(v1 as { state: Record<string, unknown> }, run => void (run.state.stateVersion = 2)), /unreadable[\s\S]*state\.stateVersion/],
      ['not a run', /^The stored plan run is unreadable: it is not a record\.$/],
    ];
    for (const [entry, expected] of cases) {
      const read = runsWith({ [RUN_KEY]: entry }).runs.read(RUN_ID);
      assert.ok(read.kind === 'corrupt', JSON.stringify(read).slice(0, 200));
      assert.match(read.error, expected);
    }
  });

  it("a run's version 1 history loads and appends without rewriting what is stored", async () => {
    const v1History = storageFixture('plan-history.v1.json') as { items: unknown[]; notes: unknown[] };
    const memento = MemoryMemento.of({ [HISTORY_KEY]: v1History });
    const history = new MementoHistoryStore(memento);
    const loaded = await history.load(RUN_ID);
    assert.equal(loaded.items.length, 10);
    const note = { noteId: 'note-1', runId: RUN_ID, timestamp: now(), content: 'Checked.', tags: [], authorAgent: 'test', itemIds: [] };
    await history.appendNote(note);
    assert.deepEqual(memento.get(HISTORY_KEY), { version: 1, items: v1History.items, notes: [note] });
  });

  it("a newer Council's history is neither read nor written", async () => {
    const v99History = storageFixture('plan-history.v99.json');
    const memento = MemoryMemento.of({ [HISTORY_KEY]: v99History });
    const history = new MementoHistoryStore(memento);
    await assert.rejects(history.load(RUN_ID), NewerVersionError);
    const note = { noteId: 'note-1', runId: RUN_ID, timestamp: now(), content: 'Checked.', tags: [], authorAgent: 'test', itemIds: [] };
    await assert.rejects(history.appendNote(note), NewerVersionError);
    assert.deepEqual(memento.get(HISTORY_KEY), v99History);
  });
});
