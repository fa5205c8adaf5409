import * as assert from 'node:assert/strict';
import { readStoredWorkflowRun } from '../../../../src/core/deepWork/storedWorkflowRun';
import { phaseRequests, runSpent, type WorkflowRunState } from '../../../../src/core/workflow/engine/workflowRunState';
import { PIPELINE_BOARD_KEY } from '../../../../src/core/plan/pipelineBoard';
import { SCHEMA_VERSION } from '../../../../src/core/plan/schemas/version';
import { HISTORY_KEY } from '../../../../src/core/plan/history/blackboardHistory';
import { NewerVersionError } from '../../../../src/core/storage/versioned';
import {
  RUN_CAPACITY,
  RunStore,
  PLAN_RUN_KEY_PREFIX as RUN_KEY_PREFIX,
} from '../../../../src/vscode/deepWork/runStore';
import { MemoryMemento } from '../../../support/memoryMemento';
import { altered, storageFixture } from './fixtures';

const RUN_ID = 'wf-00000000-0000-4000-8000-000000000001';
const RUN_KEY = RUN_KEY_PREFIX + RUN_ID;
const v1 = storageFixture('plan-run.v1.json');
const v3 = storageFixture('plan-run.v3.json');
/** Format 2 as builds before the ledger became the only meter stored it (a2ef3e0), and as the first build wrote it (e668b12). */
const v2 = storageFixture('plan-run.v2.json');
const v2first = storageFixture('plan-run.v2.first.json');
const v99 = storageFixture('plan-run.v99.json');
const now = () => '2026-02-01T00:00:00.000Z';

function runsWith(entries: Readonly<Record<string, unknown>>): { runs: RunStore; memento: MemoryMemento } {
  const memento = MemoryMemento.of(entries);
  return { runs: new RunStore(memento, now), memento };
}

/** Another run's state, from the v3 fixture. */
function otherRun(n: number): WorkflowRunState {
  const state = (v3 as { state: WorkflowRunState }).state;
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

  it('a version 3 run reads as stored, its 1.0.0 payloads migrated to the current version; saving it back changes nothing else but the time', async () => {
    const { runs, memento } = runsWith({ [RUN_KEY]: v3 });
    const run = runs.load(RUN_ID);
    assert.ok(run);
    const restamped = JSON.parse(
      JSON.stringify(v3).replaceAll('"schemaVersion":"1.0.0"', `"schemaVersion":"${SCHEMA_VERSION}"`),
    );
    assert.ok(JSON.stringify(v3).includes('"schemaVersion":"1.0.0"'), 'the fixture holds 1.0.0 payloads');
    assert.deepEqual(run, restamped);
    await runs.save(run.state, run.status);
    assert.deepEqual(memento.get(RUN_KEY), { ...restamped, updatedAt: now() });
  });

  it("a run's payload versions are compared: a newer major is a newer Council's run, an older major is refused", () => {
    const withPayloads = (version: string) =>
      JSON.parse(JSON.stringify(v3).replaceAll('"schemaVersion":"1.0.0"', `"schemaVersion":"${version}"`)) as unknown;
    const newer = runsWith({ [RUN_KEY]: withPayloads('9.0.0') }).runs.read(RUN_ID);
    assert.ok(newer.kind === 'newer');
    assert.match(
      newer.error.message,
      /^The stored workflow run cannot be read\. It holds payloads of schema 9\.0\.0, written by a newer version of Council \(this one reads payload schema 1\.x up to 1\.2\.0\)\. Update the Council extension to resume it, or start a new run/,
    );
    assert.equal(runsWith({ [RUN_KEY]: withPayloads('1.4.0') }).runs.read(RUN_ID).kind, 'found', 'a newer minor reads');
    const older = runsWith({ [RUN_KEY]: withPayloads('0.3.0') }).runs.read(RUN_ID);
    assert.ok(older.kind === 'damaged');
    assert.match(older.error, /schema 0\.3\.0, an older major version than this Council reads \(1\.x\); no migration/);
    const newerFormat = { ...(withPayloads('not a version') as object), version: 99 };
    assert.equal(runsWith({ [RUN_KEY]: newerFormat }).runs.read(RUN_ID).kind, 'newer', 'a newer format stays newer');
  });

  it("a finished run is remembered for later runs' episodic memory with what it made: a /plan run its tickets", async () => {
    const { runs } = runsWith({ [RUN_KEY]: v3 });
    const [episode] = await runs.recall(5);
    const { state } = v3 as { state: WorkflowRunState };
    assert.equal(episode?.outcome, 'completed');
    assert.match(
      episode?.summary ?? '',
      /^Workflow plan\. Goal: [^.]+\. Completed: discovery, planning, tickets\. Decided 2 tickets: Ticket T-1; Ticket T-2\.$/,
    );
    const { runs: other } = runsWith({ [RUN_KEY]: { ...v3, workflow: 'review', state: { ...state, blackboard: {} } } });
    assert.match((await other.recall(5))[0]?.summary ?? '', /^Workflow review\. .+\. Wrote \d+ files/);
  });

  it('a run that failed is remembered with how it ended and what the user answered', async () => {
    const failed = altered(v3 as { state: WorkflowRunState; status: string; message?: string }, run => {
      run.status = 'failed';
      run.message = 'The tickets stage failed: the model refused the request.';
      const board = run.state.blackboard[PIPELINE_BOARD_KEY] as { constraints: string[] };
      board.constraints.push('The user answered: keep the public API unchanged');
    });
    const [episode] = await runsWith({ [RUN_KEY]: failed }).runs.recall(5);
    assert.equal(episode?.outcome, 'failed');
    assert.match(
      episode?.summary ?? '',
      /Ended: The tickets stage failed: the model refused the request\. Decided 2 tickets: .+\. The user answered: keep the public API unchanged$/,
    );
  });

  it('a format 2 run (request counts beside an optional ledger) loads: its counts become ledger lines of the same requests', async () => {
    for (const stored of [v2, v2first]) {
      const read = readStoredWorkflowRun(stored);
      assert.ok(read.kind === 'current', JSON.stringify(read).slice(0, 300));
      assert.equal(read.migratedFrom, 2);
      const { state } = read.value;
      const storedState = (stored as { state: { requestsUsed: number; phaseTallies: Record<string, object> } }).state;
      assert.equal(runSpent(state).requests, storedState.requestsUsed, 'as many requests as the run had counted');
      assert.deepEqual(
        state.spending.map(line => [line.step, line.requests, line.inputTokens]),
        Object.entries(storedState.phaseTallies).map(([phase, tally]) => [
          `phase ${phase}`,
          (tally as { model_requests: number }).model_requests,
          0,
        ]),
      );
      assert.deepEqual(phaseRequests(state, 'discovery'), 10);
      assert.ok(Object.values(state.phaseTallies).every(tally => !('model_requests' in tally)));
    }
    // Resumed and saved, it is written in format 3.
    const { runs, memento } = runsWith({ [RUN_KEY]: v2 });
    const run = runs.load(RUN_ID);
    assert.ok(run);
    await runs.save(run.state, run.status);
    assert.equal((memento.get(RUN_KEY) as { version: number }).version, 3);
    assert.equal(readStoredWorkflowRun(memento.get(RUN_KEY)).kind, 'current');
  });

  it("a format 2 run stored as 'rejected' (before the handoff audit) reads as failed; requests beyond its phases' are kept", () => {
    const rejected = altered(v2 as { status: string; state: { requestsUsed: number } }, run => {
      run.status = 'rejected';
      run.state.requestsUsed += 1;
    });
    const read = readStoredWorkflowRun(rejected);
    assert.ok(read.kind === 'current');
    assert.equal(read.value.status, 'failed');
    assert.equal(runSpent(read.value.state).requests, 21);
    assert.deepEqual(read.value.state.spending.at(-1), {
      who: 'run',
      step: 'earlier turns',
      model: 'not recorded (saved before the ledger)',
      requests: 1,
      inputTokens: 0,
      outputTokens: 0,
    });
  });

  it('a run saved by a newer Council is reported with what to do, and skipped by load and list', () => {
    const { runs } = runsWith({ [RUN_KEY]: v99 });
    const read = runs.read(RUN_ID);
    assert.ok(read.kind === 'newer');
    assert.ok(read.error instanceof NewerVersionError);
    assert.equal(
      read.error.message,
      'The stored workflow run was saved by a newer version of Council (storage format 99; this version reads up to format 3). ' +
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
      version: 3,
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
      [altered(v3, run => void (run.status = 'exploded')), /^The stored workflow run is damaged:\n[\s\S]*status/],
      [
        altered(v3 as { state: { context: Record<string, unknown> } }, run => void delete run.state.context.goal),
        /damaged[\s\S]*state\.context\.goal/,
      ],
      [
        altered(v3 as { state: Record<string, unknown> }, run => void (run.state.stateVersion = 2)),
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
      (v3 as { state: WorkflowRunState }).state,
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
