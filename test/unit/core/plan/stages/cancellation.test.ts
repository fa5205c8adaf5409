import assert from 'node:assert/strict';
import { readBoard } from '../../../../../src/core/plan/pipelineBoard';
import { pipelineModel } from '../../../../support/pipelineScript';
import { cancellationSource } from '../../../../support/scriptedModel';
import { runFixture } from './harness';

describe('cancellation', () => {
  it('stops in-flight agents mid-stage and leaves the state at the last completed stage', async () => {
    const source = cancellationSource();
    const model = pipelineModel({}, { latencyMs: 20 });
    const started = runFixture(
      model,
      {
        onProgress: event => {
          // Cancel as soon as the ticket stage has agents in flight.
          if (event.kind === 'agent-started' && event.stage === 'tickets') setTimeout(() => source.cancel(), 5);
        },
      },
      source.token,
    );
    const { outcome, snapshot } = await started;
    assert.equal(outcome.status, 'cancelled');
    assert.equal(outcome.state.nextPhase, 'tickets');
    assert.ok(readBoard(outcome.state.blackboard).stages.planning);
    assert.equal(readBoard(outcome.state.blackboard).stages.tickets, undefined);
    const ticketItems = snapshot.items.filter(i => i.agentType === 'ticket-agent');
    assert.ok(ticketItems.length > 0);
    assert.ok(
      ticketItems.every(i => i.outcome.status === 'failed' && i.outcome.error.kind === 'cancelled'),
      'in-flight ticket agents stopped',
    );
    assert.equal(snapshot.items.filter(i => i.agentType === 'ticket-collector').length, 0);
  });

  it('a token cancelled before the run starts stops it before any model call', async () => {
    const source = cancellationSource();
    source.cancel();
    const model = pipelineModel();
    const { outcome } = await runFixture(model, {}, source.token);
    assert.equal(outcome.status, 'cancelled');
    assert.equal(outcome.state.nextPhase, 'discovery');
    assert.equal(model.callCount, 0);
  });
});
