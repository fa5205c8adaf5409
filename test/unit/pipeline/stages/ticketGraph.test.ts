import assert from 'node:assert/strict';
import { pipelineModel, planningCollectorDraft, requestText, resultIdsIn } from '../../../support/pipelineScript';
import { valueReply } from '../../../support/scriptedModel';
import { runFixture } from './harness';

describe('ticket dependency cycles', () => {
  it('feeds a cycle back for repair and continues once it is fixed', async () => {
    const model = pipelineModel({
      planning_collector_result: (request, call) =>
        valueReply(planningCollectorDraft(resultIdsIn(request), call === 0 ? [['T-1', 'T-2'], ['T-2', 'T-1']] : [['T-1', 'T-2']])),
    });
    const { outcome } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const repair = model.requests.find(r => requestText(r).includes('ticket dependencies form a cycle'));
    assert.ok(repair, 'the cycle was sent back to the model');
  });

  it('fails with a message naming the cycle when it stays cyclic, and keeps discovery resumable', async () => {
    const model = pipelineModel({
      planning_collector_result: request => valueReply(planningCollectorDraft(resultIdsIn(request), [['T-1', 'T-2'], ['T-2', 'T-1']])),
    });
    const { outcome } = await runFixture(model);
    assert.equal(outcome.status, 'failed');
    assert.ok(outcome.status === 'failed');
    assert.match(outcome.message, /cycle: T-1 -> T-2 -> T-1/);
    assert.equal(outcome.state.nextStage, 'planning');
    assert.ok(outcome.state.stages.discovery);
    assert.equal(outcome.state.stages.planning, undefined);
  });
});
