import assert from 'node:assert/strict';
import { detectDegenerateLoop } from '../../../../../src/core/plan/contextManager/degenerateLoop';
import type { InvocationRecord } from '../../../../../src/core/plan/history/blackboardHistory';
import { historyOf, idsOf, invocation } from '../history/fixtures';

const orchestrator: Partial<InvocationRecord> = {
  agentType: 'discovery-orchestrator',
  agentId: 'discovery-orchestrator-1',
  action: 'delegate',
  inputType: 'DiscoveryOrchestratorRequest',
};

async function itemsOf(records: readonly InvocationRecord[]) {
  return historyOf(records).snapshot.items;
}

const repeats = (count: number, overrides: Partial<InvocationRecord> = {}) =>
  Array.from({ length: count }, (_, i) => invocation(i + 1, overrides));

describe('detectDegenerateLoop', () => {
  it('finds nothing below or at the threshold', async () => {
    assert.equal(detectDegenerateLoop(await itemsOf(repeats(2)), 3), undefined);
    assert.equal(detectDegenerateLoop(await itemsOf(repeats(3)), 3), undefined);
  });

  it('reports a run above the threshold with its evidence', async () => {
    const loop = detectDegenerateLoop(await itemsOf(repeats(4)), 3);
    assert.ok(loop);
    assert.deepEqual(
      { ...loop, evidence: idsOf(loop.evidence) },
      {
        agentType: 'discovery-agent',
        agentId: 'discovery-agent-1',
        action: 'discover',
        inputType: 'DiscoveryAgentRequest',
        repetitionCount: 4,
        threshold: 3,
        evidence: ['item-1', 'item-2', 'item-3', 'item-4'],
      },
    );
  });

  it('is not fooled by other agents interleaving with the looping one', async () => {
    const records = [1, 2, 3, 4, 5, 6, 7].map(minute =>
      minute % 2 === 1 ? invocation(minute) : invocation(minute, { ...orchestrator, action: `step-${minute}` }),
    );
    const loop = detectDegenerateLoop(await itemsOf(records), 3);
    assert.equal(loop?.agentId, 'discovery-agent-1');
    assert.deepEqual(idsOf(loop?.evidence ?? []), ['item-1', 'item-3', 'item-5', 'item-7']);
  });

  it('does not add up parallel instances of the same agent type', async () => {
    const records = [1, 2, 3, 4].map(minute => invocation(minute, { agentId: `discovery-agent-${minute % 2}` }));
    assert.equal(detectDegenerateLoop(await itemsOf(records), 2), undefined);
  });

  it('counts only the same action with the same input type as a repetition', async () => {
    const records = [
      invocation(1),
      invocation(2),
      invocation(3, { inputType: 'DiscoveryAgentRetry' }),
      invocation(4, { inputType: 'DiscoveryAgentRetry' }),
      invocation(5, { action: 'refine', inputType: 'DiscoveryAgentRetry' }),
      invocation(6, { action: 'refine', inputType: 'DiscoveryAgentRetry' }),
    ];
    assert.equal(detectDegenerateLoop(await itemsOf(records), 2), undefined);
  });

  it('forgets a loop once the agent has moved on', async () => {
    const records = [...repeats(4), invocation(9, { action: 'report', inputType: 'DiscoveryReport' })];
    assert.equal(detectDegenerateLoop(await itemsOf(records), 2), undefined);
  });

  it('reports the longest of several loops, and the most recent of equally long ones', async () => {
    const longerFirst = [1, 2, 3, 4]
      .map(minute => invocation(minute, orchestrator))
      .concat([5, 6, 7].map(minute => invocation(minute)));
    const longest = detectDegenerateLoop(await itemsOf(longerFirst), 2);
    assert.equal(longest?.agentId, 'discovery-orchestrator-1');
    assert.equal(longest?.repetitionCount, 4);
    const equal = [1, 2, 3]
      .map(minute => invocation(minute))
      .concat([4, 5, 6].map(minute => invocation(minute, orchestrator)));
    assert.equal(detectDegenerateLoop(await itemsOf(equal), 2)?.agentId, 'discovery-orchestrator-1');
    const equalReversed = [1, 2, 3]
      .map(minute => invocation(minute, orchestrator))
      .concat([4, 5, 6].map(minute => invocation(minute)));
    assert.equal(detectDegenerateLoop(await itemsOf(equalReversed), 2)?.agentId, 'discovery-agent-1');
  });
});
