import * as assert from 'node:assert/strict';
import { HISTORY_KEY } from '../../../../src/core/plan/history/blackboardHistory';
import { NewerVersionError } from '../../../../src/core/storage/versioned';
import type { WorkflowRunState } from '../../../../src/core/workflow/engine/workflowRunState';
import { RUN_CAPACITY, RunStore, RUN_KEY_PREFIX } from '../../../../src/vscode/workflow/runStore';
import { MemoryMemento } from '../../../support/memoryMemento';
import { altered, storageFixture } from './fixtures';

const RUN_ID = 'wf-00000000-0000-4000-8000-000000000001';
const RUN_KEY = RUN_KEY_PREFIX + RUN_ID;
const v1 = storageFixture('plan-run.v1.json');
const v2 = storageFixture('plan-run.v2.json');
const v99 = storageFixture('plan-run.v99.json');
const now = () => '2026-02-01T00:00:00.000Z';

function runsWith(entries: Readonly<Record<string, unknown>>): { runs: RunStore; memento: MemoryMemento } {
  const memento = MemoryMemento.of(entries);
  return { runs: new RunStore(memento, now), memento };
}

/** Another run's state, from the v2 fixture. */
function otherRun(n: number): WorkflowRunState {
  const state = (v2 as { state: WorkflowRunState }).state;
  return { ...state, runId: `wf-00000000-0000-4000-8000-${String(n).padStart(12, '0')}` };
}

describe('stored /plan and workflow runs across versions', () => {
  it("a format 1 /plan run (a development build's pipeline state, never released) is refused with the way forward", () => {
    const { runs } = runsWith({ [RUN_KEY]: v1 });
    const read = runs.read(RUN_ID);
    assert.ok(read.kind === 'damaged');
    assert.match(read.error, /could not be upgraded from format 1: it was saved by a development build/);
    assert.equal(runs.load(RUN_ID), undefined);
    assert.deepEqual(runs.list(), []);
  });

  it('a version 2 run reads as stored, and saving it back changes nothing but the time', async () => {
    const { runs, memento } = runsWith({ [RUN_KEY]: v2 });
    const run = runs.load(RUN_ID);
    assert.ok(run);
    assert.deepEqual(run, v2);
    await runs.save(run.state, run.status);
    assert.deepEqual(memento.get(RUN_KEY), { ...v2, updatedAt: now() });
  });

  it("a finished run is remembered for later runs' episodic memory with what it made: a /plan run its tickets", async () => {
    const { runs } = runsWith({ [RUN_KEY]: v2 });
    const [episode] = await runs.recall(5);
    const { state } = v2 as { state: WorkflowRunState };
    assert.equal(episode?.outcome, 'completed');
    assert.match(
      episode?.summary ?? '',
      /^Workflow plan\. Goal: .+\. Completed: discovery, planning, tickets; \d+ tickets\.$/,
    );
    const { runs: other } = runsWith({ [RUN_KEY]: { ...v2, workflow: 'review', state: { ...state, blackboard: {} } } });
    assert.match((await other.recall(5))[0]?.summary ?? '', /^Workflow review\. .+; \d+ files\.$/);
  });

  it('a run saved by a newer Council is reported with what to do, and skipped by load and list', () => {
    const { runs } = runsWith({ [RUN_KEY]: v99 });
    const read = runs.read(RUN_ID);
    assert.ok(read.kind === 'newer');
    assert.ok(read.error instanceof NewerVersionError);
    assert.equal(
      read.error.message,
      'The stored workflow run was saved by a newer version of Council (storage format 99; this version reads up to format 2). ' +
        'Update the Council extension to resume it, or start a new run with `/plan <goal>` or `/workflow <name> <goal>`. The saved workflow run is kept unchanged.',
    );
    assert.equal(runs.load(RUN_ID), undefined);
    assert.deepEqual(runs.list(), []);
    assert.deepEqual(
      runs.newestReadable().passedOver.map(read => read.kind),
      ['newer'],
      'a bare resume passes over it, and says so',
    );
    assert.equal(runs.newestReadable().run, undefined);
    assert.deepEqual(runs.read('wf-none'), { kind: 'missing' });
  });

  it('a bare resume takes the newest readable run, names the newer ones it passed over and lists the rest', async () => {
    const { runs, memento } = runsWith({});
    for (let n = 1; n <= 3; n++) await runs.save(otherRun(n), 'paused');
    // Newer than every readable run: one damaged, one from a newer Council.
    await memento.update(`${RUN_KEY_PREFIX}wf-damaged`, {
      version: 2,
      workflow: 'plan',
      updatedAt: '2099-01-01T00:00:00.000Z',
      state: 'x',
    });
    await memento.update(`${RUN_KEY_PREFIX}wf-newer`, { ...(v99 as object), updatedAt: '2098-01-01T00:00:00.000Z' });
    const { run, passedOver, others } = runs.newestReadable('plan');
    assert.deepEqual(
      passedOver.map(read => [read.kind, read.runId]),
      [
        ['damaged', 'wf-damaged'],
        ['newer', 'wf-newer'],
      ],
    );
    assert.ok(run);
    assert.equal(others.length, 2);
    assert.ok(others.every(other => other.updatedAt <= run.updatedAt));
  });

  it('never saves over or evicts a newer Council’s run', async () => {
    const { runs, memento } = runsWith({ [RUN_KEY]: v99 });
    await assert.rejects(runs.save(otherRun(1), 'paused'), NewerVersionError);
    assert.deepEqual(memento.get(RUN_KEY), v99);
    for (let n = 2; n <= RUN_CAPACITY + 2; n++) await runs.save(otherRun(n), 'completed');
    assert.deepEqual(memento.get(RUN_KEY), v99);
    assert.equal(runs.list().length, RUN_CAPACITY);
  });

  it('a damaged run gives a clear error naming what is wrong', () => {
    const cases: [unknown, RegExp][] = [
      [altered(v2, run => void (run.status = 'exploded')), /^The stored workflow run is damaged:\n[\s\S]*status/],
      [
        altered(v2 as { state: { context: Record<string, unknown> } }, run => void delete run.state.context.goal),
        /damaged[\s\S]*state\.context\.goal/,
      ],
      [
        altered(v2 as { state: Record<string, unknown> }, run => void (run.state.stateVersion = 2)),
        /damaged[\s\S]*state\.stateVersion/,
      ],
      ['not a run', /^The stored workflow run is damaged: it is not a record\.$/],
    ];
    for (const [entry, expected] of cases) {
      const read = runsWith({ [RUN_KEY]: entry }).runs.read(RUN_ID);
      assert.ok(read.kind === 'damaged', JSON.stringify(read).slice(0, 200));
      assert.match(read.error, expected);
    }
  });

  it("a run's history rides in its state: saved with it, read back with it, a damaged item reported", async () => {
    const item = {
      itemId: 'item-1',
      runId: RUN_ID,
      agentType: 'discovery-agent',
      agentId: 'discovery-1',
      action: 'discover',
      inputType: 'DiscoveryAgentRequest',
      input: {},
      outcome: { status: 'succeeded', output: {} },
      upstreamContextIds: [],
      startedAt: '2026-01-19T10:00:00.000Z',
      endedAt: '2026-01-19T10:00:01.000Z',
      durationMs: 1000,
    };
    const state = altered(
      (v2 as { state: WorkflowRunState }).state,
      run => void (run.blackboard[HISTORY_KEY] = [item]),
    );
    const { runs, memento } = runsWith({});
    await runs.save(state, 'cancelled');
    assert.deepEqual(runs.load(RUN_ID)?.state.blackboard[HISTORY_KEY], [item]);
    const damaged = altered(memento.get(RUN_KEY) as { state: WorkflowRunState }, run => {
      (run.state.blackboard[HISTORY_KEY] as { action: string }[])[0]!.action = '';
    });
    const read = runsWith({ [RUN_KEY]: damaged }).runs.read(RUN_ID);
    assert.ok(read.kind === 'damaged');
    assert.match(read.error, /state\.blackboard\.history\[0\]\.action/);
  });
});
