import * as assert from 'node:assert/strict';
import { readStoredWorkflowRun, storeWorkflowRun } from '../../../../src/core/deepWork/storedWorkflowRun';
import { PIPELINE_BOARD_KEY } from '../../../../src/core/plan/pipelineBoard';
import { HISTORY_KEY } from '../../../../src/core/plan/history/blackboardHistory';
import { pipelineModel } from '../../../support/pipelineScript';
import { runFixture } from '../plan/stages/harness';

describe('a stored workflow run', () => {
  it('reads back a /plan run with its board and history as it was saved', async () => {
    const { outcome } = await runFixture(pipelineModel());
    const stored = storeWorkflowRun(outcome.state, 'completed', '2026-01-19T10:00:00.000Z');
    const read = readStoredWorkflowRun(JSON.parse(JSON.stringify(stored)));
    assert.equal(read.kind, 'current');
    assert.deepEqual(read.kind === 'current' ? read.value : undefined, stored);
  });

  it("words a damaged board's and history's issues as every stored record's are, with their place in the run", async () => {
    const { outcome } = await runFixture(pipelineModel());
    const raw = JSON.parse(JSON.stringify(storeWorkflowRun(outcome.state, 'completed', '2026-01-19T10:00:00.000Z')));
    raw.state.blackboard[PIPELINE_BOARD_KEY].nextSequence = 'seven';
    raw.state.blackboard[HISTORY_KEY] = 'lost';
    const read = readStoredWorkflowRun(raw);
    assert.equal(read.kind, 'damaged');
    const error = read.kind === 'damaged' ? read.error : '';
    assert.match(
      error,
      /state\.blackboard\.pipeline\.nextSequence: Expected a (whole )?number, found the text `seven`\./,
    );
    assert.match(error, /state\.blackboard\.history: Expected a list, found the text `lost`\./);
    assert.doesNotMatch(error, /Invalid input/, "zod's own wording does not reach the user");
  });

  it("refuses a stored history whose context ids are not spec 000's (run id, agent type, sequence >= 1, instant)", async () => {
    const { outcome } = await runFixture(pipelineModel());
    const raw = JSON.parse(JSON.stringify(storeWorkflowRun(outcome.state, 'completed', '2026-01-19T10:00:00.000Z')));
    const [first] = raw.state.blackboard[HISTORY_KEY] as { contextId: string; upstreamContextIds: string[] }[];
    assert.ok(first);
    first.contextId = first.contextId.replace(/\/([a-z-]+)\/\d+\//, '/$1/0/');
    first.upstreamContextIds = ['wf-not-a-uuid/orchestrator/1/2026-01-19T10:00:00Z'];
    const read = readStoredWorkflowRun(raw);
    assert.equal(read.kind, 'damaged');
    const error = read.kind === 'damaged' ? read.error : '';
    assert.match(error, /state\.blackboard\.history\[0\]\.contextId: .*context id/);
    assert.match(error, /state\.blackboard\.history\[0\]\.upstreamContextIds\[0\]: .*context id/);
  });
});
