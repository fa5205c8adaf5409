import assert from 'node:assert/strict';
import {
  discoveryCollectorDraft,
  pipelineModel,
  requestText,
  resultIdsIn,
  agentIdIn,
} from '../../../../support/pipelineScript';
import { valueReply } from '../../../../support/scriptedModel';
import { runFixture } from './harness';
import { readBoard } from '../../../../../src/core/plan/pipelineBoard';
import { REPETITION_BOUNDS } from '../../../../../src/core/workflow/engine/repetitionBounds';

const alwaysRerunDiscovery1 = {
  discovery_collector_result: (request: Parameters<typeof resultIdsIn>[0]) =>
    valueReply(
      discoveryCollectorDraft(resultIdsIn(request), {
        kind: 'rerun',
        rationale: 'Still not deep enough.',
        agentIds: ['discovery-1'],
      }),
    ),
};

describe('degenerate loops and the context manager', () => {
  it('stops a looping agent and re-runs exactly that agent with the reconstructed context', async () => {
    const model = pipelineModel({
      ...alwaysRerunDiscovery1,
      route_context: valueReply({
        reason: 'discovery-1 keeps getting the same feedback.',
        next: {
          kind: 'route',
          targetAgentType: 'discovery-agent',
          context: {
            goal: 'Map src only.',
            summary: 'Three attempts covered src/app.ts.',
            instructions: 'Read src/util/math.ts this time.',
            relevantItemIds: [],
            excludedItemIds: [],
          },
        },
      }),
    });
    const { outcome, snapshot, events } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const loop = events.find(e => e.kind === 'loop-detected');
    assert.ok(loop && loop.kind === 'loop-detected');
    assert.equal(loop.agentId, 'discovery-1');
    assert.equal(loop.repetitionCount, 3);
    const cm = snapshot.items.filter(i => i.agentType === 'context-manager');
    assert.equal(cm.length, 1, 'the context manager ran once');
    const rerouted = snapshot.items.filter(i => i.inputType === 'DiscoveryAgentRequest+ReconstructedContext');
    assert.deepEqual(
      rerouted.map(i => i.agentId),
      ['discovery-1'],
      'exactly one agent re-ran with the reconstructed context',
    );
    const reroutedPrompt = model.requests.find(
      r =>
        requestText(r).includes('Read src/util/math.ts this time.') &&
        agentIdIn({ messages: r.messages }) === 'discovery-1',
    );
    assert.ok(reroutedPrompt, 'the reconstructed context reaches the agent prompt');
    const limit = events.find(e => e.kind === 'limit-reached' && e.stage === 'discovery');
    assert.ok(limit && limit.kind === 'limit-reached', 'the rerun bound ends the reruns');
    assert.match(limit.message, /asked for another rerun after 2 \(the most one pass of a stage takes\)/);
    assert.equal(readBoard(outcome.state.blackboard).stages.discovery?.rounds, 3);
  });

  it('the loop threshold detects, it does not bound: a higher one finds no loop within the reruns (REPETITION_BOUNDS.reruns)', async () => {
    const model = pipelineModel(alwaysRerunDiscovery1);
    const { outcome, snapshot, events } = await runFixture(model, { options: { loopThreshold: 3 } });
    assert.equal(outcome.status, 'completed');
    const attempts = snapshot.items.filter(i => i.agentId === 'discovery-1').map(i => i.inputType);
    assert.deepEqual(attempts, Array<string>(3).fill('DiscoveryAgentRequest'), 'first attempt and two reruns');
    assert.equal(snapshot.items.filter(i => i.agentType === 'context-manager').length, 0);
    assert.equal(readBoard(outcome.state.blackboard).stages.discovery?.rounds, REPETITION_BOUNDS.reruns + 1);
    assert.equal(events.filter(e => e.kind === 'limit-reached').length, 1);
  });

  it('bounds the reruns when no single agent loops: a collector naming another agent each round stops after REPETITION_BOUNDS.reruns', async () => {
    let decisions = 0;
    const model = pipelineModel({
      discovery_collector_result: (request: Parameters<typeof resultIdsIn>[0]) =>
        valueReply(
          discoveryCollectorDraft(resultIdsIn(request), {
            kind: 'rerun',
            rationale: 'Look again.',
            agentIds: [decisions++ % 2 === 0 ? 'discovery-1' : 'discovery-2'],
          }),
        ),
    });
    const { outcome, snapshot, events } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    assert.equal(events.filter(e => e.kind === 'loop-detected').length, 0, 'no agent repeated itself');
    assert.equal(snapshot.items.filter(i => i.agentType === 'context-manager').length, 0);
    const limit = events.find(e => e.kind === 'limit-reached' && e.stage === 'discovery');
    assert.ok(limit && limit.kind === 'limit-reached', 'the bound ends the reruns');
    assert.match(limit.message, /after 2 \(the most one pass of a stage takes\)/);
    assert.equal(readBoard(outcome.state.blackboard).stages.discovery?.rounds, 3);
  });

  it('surfaces the question when the context manager asks the user; the state stays resumable', async () => {
    const model = pipelineModel({
      ...alwaysRerunDiscovery1,
      route_context: valueReply({
        reason: 'Unclear scope.',
        next: { kind: 'ask_user', question: 'Which module should the change go into?' },
      }),
    });
    const { outcome } = await runFixture(model);
    assert.equal(outcome.status, 'needs_user');
    assert.ok(outcome.status === 'needs_user');
    assert.equal(outcome.question, 'Which module should the change go into?');
    assert.equal(outcome.state.nextPhase, 'discovery');
  });
});
