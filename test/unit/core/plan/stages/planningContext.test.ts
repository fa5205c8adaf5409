import assert from 'node:assert/strict';
import { pipelineModel, requestText } from '../../../../support/pipelineScript';
import { runFixture } from './harness';

describe('what planning reads of discovery', () => {
  it("the agents read the code map and recommendations; the collector only the recommendations its tickets must cover; neither the reports' ids behind each", async () => {
    const model = pipelineModel();
    const { outcome } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const texts = (name: string) =>
      model.requests
        .filter(request => request.toolMode === 'required' && request.tools[0]?.name === name)
        .map(requestText);
    const agents = texts('planning_agent_result');
    const [collector] = texts('planning_collector_result');
    assert.ok(agents.length > 0 && collector !== undefined);
    for (const agent of agents) {
      assert.match(agent, /"deduplicatedReferences"/);
      assert.match(agent, /"recommendationId":"R-1"/);
    }
    assert.match(collector, /## What discovery recommended/);
    assert.match(collector, /"recommendationId":"R-1","title":"Add subtraction"/);
    assert.doesNotMatch(collector, /deduplicatedReferences|unifiedDiagram/);
    for (const text of [...agents, collector]) assert.doesNotMatch(text, /supportingDiscoveryIds/);
  });
});
