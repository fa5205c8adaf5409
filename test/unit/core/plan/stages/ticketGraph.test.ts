import assert from 'node:assert/strict';
import { readBoard } from '../../../../../src/core/plan/pipelineBoard';
import { pipelineModel, planningCollectorDraft, requestText, resultIdsIn } from '../../../../support/pipelineScript';
import { valueReply } from '../../../../support/scriptedModel';
import { runFixture } from './harness';

describe('ticket dependency cycles', () => {
  it('breaks a cycle deterministically before validation (the edge that closes it), notes it, and asks for no repair', async () => {
    const model = pipelineModel({
      planning_collector_result: request =>
        valueReply(
          planningCollectorDraft(resultIdsIn(request), [
            ['T-1', 'T-2'],
            ['T-2', 'T-1'],
          ]),
        ),
    });
    const { outcome, events } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(
      readBoard(outcome.state.blackboard).stages.planning?.result.dependencyGraph.map(e => [
        e.fromTicketId,
        e.toTicketId,
      ]),
      [['T-1', 'T-2']],
    );
    assert.ok(
      !model.requests.some(r => /did not match the required format|rejected by validation/.test(requestText(r))),
      'no repair round',
    );
    const noted = events.flatMap(e =>
      e.kind === 'reply-normalized' && e.reply === 'planning_collector_result' ? e.changes : [],
    );
    assert.ok(
      noted.includes('dropped the dependency T-2 -> T-1, which closed the cycle T-1 -> T-2 -> T-1'),
      noted.join('\n'),
    );
  });

  it('drops self-dependencies and edges to tickets that do not exist', async () => {
    const model = pipelineModel({
      planning_collector_result: request =>
        valueReply(
          planningCollectorDraft(resultIdsIn(request), [
            ['T-1', 'T-1'],
            ['T-9', 'T-2'],
            ['T-1', 'T-2'],
          ]),
        ),
    });
    const { outcome } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(
      readBoard(outcome.state.blackboard).stages.planning?.result.dependencyGraph.map(e => [
        e.fromTicketId,
        e.toTicketId,
      ]),
      [['T-1', 'T-2']],
    );
  });
});
