import assert from 'node:assert/strict';
import { runPipeline } from '../../../../src/core/pipeline/run/runPipeline';
import { neverCancelled } from '../../../../src/core/llm/languageModel';
import { counterIds, discoveryReportDraft, fixtureReader, pipelineModel, requestText, steppingClock } from '../../../support/pipelineScript';
import { valueReply } from '../../../support/scriptedModel';
import { runFixture } from './harness';

describe('handoff repair and escalation', () => {
  it('sends validation findings back to the agent and accepts the repaired report', async () => {
    const model = pipelineModel({
      discovery_report: [valueReply(discoveryReportDraft('src/missing.ts')), valueReply(discoveryReportDraft())],
    });
    const { outcome } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const repair = model.requests.find(r => requestText(r).includes('rejected by validation'));
    assert.ok(repair);
    assert.match(requestText(repair), /SEM-005[^\n]*src\/missing\.ts does not exist/);
  });

  it('escalates HandoffRejected to the caller as a clear message; the state stays resumable', async () => {
    const bad = pipelineModel({ discovery_report: valueReply(discoveryReportDraft('src/missing.ts')) });
    const first = await runFixture(bad);
    assert.equal(first.outcome.status, 'rejected');
    assert.ok(first.outcome.status === 'rejected');
    assert.match(first.outcome.message, /handoff from discovery-agent \(discovery-\d\) to discovery-collector/);
    assert.match(first.outcome.message, /SEM-005[^\n]*src\/missing\.ts does not exist/);
    assert.match(first.outcome.message, /after 3 attempts/);
    assert.equal(first.outcome.state.nextStage, 'discovery');
    assert.ok(first.snapshot.items.some(i => i.outcome.status === 'failed' && i.outcome.error.kind === 'HandoffRejected'));

    // Resume the same run with a model that now behaves.
    const resumed = await runPipeline({
      goal: 'ignored on resume',
      model: pipelineModel(),
      reader: fixtureReader(),
      history: first.history,
      clock: steppingClock(Date.parse('2026-01-19T11:00:00.000Z')),
      ids: counterIds(),
      token: neverCancelled,
      resume: first.outcome.state,
    });
    assert.equal(resumed.status, 'completed');
    assert.equal(resumed.state.goal, 'Add subtraction to the calculator.');
    assert.ok(resumed.state.nextSequence > first.outcome.state.nextSequence);
  });
});
