import * as assert from 'node:assert/strict';
import { neverCancelled } from '../../../../src/core/llm/languageModel';
import { runDeepWork } from '../../../../src/core/deepWork/runDeepWork';
import { newRunFolder, newRunId } from '../../../../src/core/deepWork/runHome';
import { storeWorkflowRun } from '../../../../src/core/deepWork/storedWorkflowRun';
import type { WorkflowDefinition } from '../../../../src/core/workflow/definition/workflowDefinition';
import type { LanguageModel } from '../../../../src/core/llm/languageModel';
import type { WorkflowRunState } from '../../../../src/core/workflow/engine/workflowRunState';
import { PLAN_RUN_KEY_PREFIX, RunStore, WORKFLOW_RUN_KEY_PREFIX } from '../../../../src/vscode/deepWork/runStore';
import { InMemoryRunOutputs } from '../../../support/inMemoryRunOutputs';
import { InMemoryWorkspaceReader } from '../../../support/inMemoryWorkspaceReader';
import { MemoryMemento } from '../../../support/memoryMemento';
import { counterIds, pipelineModel, steppingClock } from '../../../support/pipelineScript';
import { PIPELINE_BOARD_KEY, readBoard } from '../../../../src/core/plan/pipelineBoard';
import { builtInWorkflow } from '../../../support/builtInWorkflow';
import { runFixture } from '../plan/stages/harness';
import { downModel, echoModel, phase, strict, workflow } from '../workflow/engine/workflowHarness';

const REVIEW = workflow([phase('scan', strict('reviewer')), phase('write', strict('writer'))]);

/** One turn of `definition` (a new run with `runId`, or `resume`d), its files in `folder`. */
function turn(
  definition: WorkflowDefinition,
  model: LanguageModel,
  run: { readonly runId: string; readonly folder: string; readonly resume?: WorkflowRunState },
) {
  return runDeepWork({
    workflow: definition,
    ...(run.resume ? { resume: { state: run.resume } } : { start: { goal: 'Review the app.' } }),
    model,
    reader: new InMemoryWorkspaceReader({ 'src/app.ts': 'export const app = 1;\n' }),
    runId: run.runId,
    outputs: new InMemoryRunOutputs(run.folder),
    clock: steppingClock(),
    ids: counterIds(),
    token: neverCancelled,
  });
}

describe('stored workflow runs: their own key, ids and folder', () => {
  it('a new generic workflow run has a run- id, writes under .council/workflow-runs and is saved under its own key', async () => {
    const runId = newRunId(REVIEW.name, counterIds());
    assert.match(runId, /^run-/);
    const outcome = await turn(REVIEW, echoModel(), { runId, folder: newRunFolder(REVIEW.name, runId) });
    assert.equal(outcome.status, 'completed');
    assert.equal(outcome.state.context.output_dir, `.council/workflow-runs/${runId}`);
    const memento = MemoryMemento.of({});
    const runs = new RunStore(memento);
    await runs.save(outcome.state, 'completed');
    assert.deepEqual(memento.keys(), [WORKFLOW_RUN_KEY_PREFIX + runId]);
    assert.equal(runs.load(runId)?.status, 'completed');
  });

  it("a generic run borrows no /plan board; one whose workflow runs /plan's stages gets its board at the first stage", async () => {
    const runId = newRunId(REVIEW.name, counterIds());
    const plain = await turn(REVIEW, echoModel(), { runId, folder: newRunFolder(REVIEW.name, runId) });
    assert.equal(plain.status, 'completed');
    assert.equal(PIPELINE_BOARD_KEY in plain.state.blackboard, false);

    const staged = { ...builtInWorkflow('plan'), name: 'my-plan' };
    const { outcome, board } = await runFixture(pipelineModel(), {
      workflow: staged,
      runId: newRunId(staged.name, counterIds()),
    });
    assert.equal(outcome.status, 'completed');
    assert.match(outcome.state.runId, /^run-/);
    assert.equal(board.goal, 'Add subtraction to the calculator.');
    assert.match(board.rootContextId, new RegExp(`^${outcome.state.runId}/orchestrator/1/`));
    assert.ok(readBoard(outcome.state.blackboard).stages.tickets, 'all three stages recorded on the board');
  });

  it('a /plan run is still saved under council.pipelineRun/', async () => {
    const runId = newRunId('plan', counterIds());
    const state = (await turn({ ...REVIEW, name: 'plan' }, echoModel(), { runId, folder: newRunFolder('plan', runId) }))
      .state;
    const memento = MemoryMemento.of({});
    await new RunStore(memento).save(state, 'completed');
    assert.deepEqual(memento.keys(), [PLAN_RUN_KEY_PREFIX + runId]);
  });

  it('a workflow run saved under the old key (council.pipelineRun/, a wf- id, .council/runs) still loads and resumes, then moves to its own key', async () => {
    const runId = 'wf-00000000-0000-4000-8000-000000000042';
    const oldFolder = `.council/runs/${runId}`;
    const stopped = await turn(REVIEW, downModel(), { runId, folder: oldFolder });
    assert.equal(stopped.status, 'failed');
    const oldKey = PLAN_RUN_KEY_PREFIX + runId;
    const memento = MemoryMemento.of({
      [oldKey]: storeWorkflowRun(stopped.state, 'failed', '2026-01-01T00:00:00.000Z'),
    });
    const runs = new RunStore(memento, () => '2026-01-02T00:00:00.000Z');

    // Found by id, by a bare resume of its workflow, and in the list.
    const read = runs.read(runId);
    assert.ok(read.kind === 'found');
    assert.equal(runs.newestReadable(REVIEW.name).run?.state.runId, runId);
    assert.deepEqual(
      runs.list().map(run => run.state.runId),
      [runId],
    );

    // Resumed in the folder its state names, it completes there.
    const resumed = await turn(REVIEW, echoModel(), {
      runId,
      folder: read.run.state.context.output_dir,
      resume: read.run.state,
    });
    assert.equal(resumed.status, 'completed');
    assert.equal(resumed.state.context.output_dir, oldFolder);
    assert.ok(resumed.state.context.deliverables.every(file => file.path.startsWith(`${oldFolder}/`)));

    await runs.save(resumed.state, 'completed');
    assert.deepEqual(memento.keys(), [WORKFLOW_RUN_KEY_PREFIX + runId], 'written under its own key only');
    assert.equal(runs.load(runId)?.status, 'completed');
    assert.deepEqual(
      runs.list().map(run => run.state.runId),
      [runId],
    );
  });

  it('a run under both keys (a move cut short) is listed once, by its own key', async () => {
    const runId = newRunId(REVIEW.name, counterIds());
    const { state } = await turn(REVIEW, echoModel(), { runId, folder: newRunFolder(REVIEW.name, runId) });
    const memento = MemoryMemento.of({
      [PLAN_RUN_KEY_PREFIX + runId]: storeWorkflowRun(state, 'paused', '2026-01-01T00:00:00.000Z'),
      [WORKFLOW_RUN_KEY_PREFIX + runId]: storeWorkflowRun(state, 'completed', '2026-01-02T00:00:00.000Z'),
    });
    const runs = new RunStore(memento);
    assert.deepEqual(
      runs.list().map(run => run.status),
      ['completed'],
    );
    assert.equal(runs.load(runId)?.status, 'completed');
  });
});
