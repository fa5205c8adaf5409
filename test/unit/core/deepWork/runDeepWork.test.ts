import * as assert from 'node:assert/strict';
import { neverCancelled } from '../../../../src/core/llm/languageModel';
import { runDeepWork } from '../../../../src/core/deepWork/runDeepWork';
import type { WorkflowDefinition } from '../../../../src/core/workflow/definition/workflowDefinition';
import { InMemoryRunOutputs } from '../../../support/inMemoryRunOutputs';
import { InMemoryWorkspaceReader } from '../../../support/inMemoryWorkspaceReader';
import { counterIds, FIXTURE_FILES, newRunId, steppingClock } from '../../../support/pipelineScript';
import { ScriptedModel } from '../../../support/scriptedModel';
import { phase, strict, workflow } from '../workflow/engine/workflowHarness';

/** A reader that counts how often the workspace is listed. */
class CountingReader extends InMemoryWorkspaceReader {
  listings = 0;
  override listFiles(...args: Parameters<InMemoryWorkspaceReader['listFiles']>) {
    this.listings += 1;
    return super.listFiles(...args);
  }
}

async function runWith(definition: WorkflowDefinition) {
  const reader = new CountingReader(FIXTURE_FILES);
  const clock = steppingClock();
  const ids = counterIds();
  const runId = newRunId(ids);
  // Tool calling on, no tool calls: an exploring agent looks once (one request with the tools), then reports.
  const model = new ScriptedModel(() => '# Notes\n\nNothing more to read.');
  const outcome = await runDeepWork({
    workflow: definition,
    start: { goal: 'Review.' },
    model,
    reader,
    runId,
    outputs: new InMemoryRunOutputs(`.council/runs/${runId}`),
    clock,
    ids,
    token: neverCancelled,
  });
  return { outcome, reader, model };
}

describe('runDeepWork: what a workflow run costs besides its model requests', () => {
  it('lists the workspace once per call, shared by every agent that explores it', async () => {
    const { outcome, reader, model } = await runWith(
      workflow([phase('scan', strict('code-scout', 'pattern-analyzer')), phase('more', strict('code-scout'))]),
    );
    assert.equal(outcome.status, 'completed');
    assert.equal(reader.listings, 1);
    assert.equal(model.callCount, 6, 'each explorer: one look, one report');
  });

  it('never lists the workspace for a workflow whose agents do not explore it', async () => {
    const { outcome, reader } = await runWith(workflow([phase('write', strict('writer', 'reviewer'))]));
    assert.equal(outcome.status, 'completed');
    assert.equal(reader.listings, 0);
  });
});
