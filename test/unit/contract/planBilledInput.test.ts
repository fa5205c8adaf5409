import assert from 'node:assert/strict';
import { runSpent } from '../../../src/core/workflow/engine/workflowRunState';
import { benchFiles, citingReport } from '../../support/benchWorkspace';
import { InMemoryWorkspaceReader } from '../../support/inMemoryWorkspaceReader';
import { pipelineModel } from '../../support/pipelineScript';
import { runFixture } from '../core/plan/stages/harness';

/**
 * What a whole /plan run bills for its input, in the pipeline bench's workspace (20 files, reports citing 12-line
 * snippets): every request's messages and tool schemas, as the governor counts them (4 characters a token). Issue 37:
 * 36,660 at f631f3f, 29,784 before the prompts lost what they repeated (the consolidation's bookkeeping in every
 * planning prompt, tool guidance the tools' own descriptions say, a longer data notice), 28,469 with spec 001's
 * contextRequest and proceed (issue 39), 25,874 after the second cut (h37b: contextRequest as one string, fields Council
 * fills no longer asked, descriptions the prompts say, the planning collector reading discovery's recommendations only,
 * shorter tool guidance and data notice). A change that makes /plan dearer moves this figure in its review.
 */
const BILLED_INPUT_BUDGET = 26_000;
const MOST_REQUESTS = 20;

describe('/plan billed input budget: a whole run in the bench workspace', function () {
  this.timeout(20_000);

  it(`bills at most ${BILLED_INPUT_BUDGET} input tokens in at most ${MOST_REQUESTS} requests`, async () => {
    const files = benchFiles();
    const model = pipelineModel({ discovery_report: citingReport(files) });
    const { outcome } = await runFixture(model, { reader: new InMemoryWorkspaceReader(files) });
    assert.equal(outcome.status, 'completed');
    const spent = runSpent(outcome.state);
    assert.ok(spent.requests <= MOST_REQUESTS, `${spent.requests} requests`);
    assert.ok(
      spent.inputTokens <= BILLED_INPUT_BUDGET,
      `${spent.inputTokens} billed input tokens, over the budget of ${BILLED_INPUT_BUDGET}`,
    );
  });
});
