import assert from 'node:assert/strict';
import { forecastSentence, forecastStages, type StageForecast } from '../../../../../src/core/plan/run/requestEstimate';
import { pipelineModel } from '../../../../support/pipelineScript';
import { runFixture } from '../stages/harness';

describe("/plan's request forecast", () => {
  it('at the start and at every checkpoint, the next stage makes a number of requests within its forecast; planning and tickets exactly once their agents are known', async () => {
    const model = pipelineModel();
    const seen: { readonly forecast: StageForecast | undefined; readonly callsBefore: number }[] = [
      { forecast: forecastStages(undefined)[0], callsBefore: 0 },
    ];
    const { outcome } = await runFixture(model, {
      checkpoint: async checkpoint => {
        seen.push({ forecast: forecastStages(checkpoint.state)[0], callsBefore: model.requests.length });
        return 'continue';
      },
    });
    assert.equal(outcome.status, 'completed');
    // The plan workflow has no checkpoint after tickets: the run's end closes the last stage, with nothing left to forecast.
    assert.equal(forecastStages(outcome.state)[0], undefined);
    seen.push({ forecast: undefined, callsBefore: model.requests.length });
    const stages = seen.slice(0, -1);
    assert.deepEqual(
      stages.map(s => s.forecast?.stage),
      ['discovery', 'planning', 'tickets'],
    );
    stages.forEach((at, i) => {
      const made = seen[i + 1]!.callsBefore - at.callsBefore;
      const requests = at.forecast?.requests;
      assert.ok(requests, `${at.forecast?.stage}: a forecast`);
      assert.ok(
        made >= requests.fewest && made <= requests.most,
        `${at.forecast?.stage}: ${made} requests, forecast ${requests.fewest}–${requests.most}`,
      );
    });
    // Once discovery is done, planning's agents are known: 2 recommendations -> 2 agents, 1 request each, + the collector.
    assert.deepEqual(stages[1]?.forecast, {
      stage: 'planning',
      agents: 2,
      requests: { fewest: 3, most: 3 },
      perAgent: { fewest: 1, most: 1 },
    });
    assert.equal(seen[2]!.callsBefore - seen[1]!.callsBefore, 3);
    assert.equal(stages[2]?.forecast?.agents, 2, 'one ticket agent per ticket');
    assert.deepEqual(forecastStages(outcome.state), []);
  });

  it('says what is known and what is not, in one sentence', () => {
    const start = forecastSentence(forecastStages(undefined), { input: 0.25, output: 2 });
    assert.equal(
      start,
      "Still to run: discovery 3–16; planning 2–4; tickets one agent per ticket planning makes (2–3 requests each, plus 1): 5–20 and more model requests, ≈35k–140k tokens, about 1.8–7.0 AI credits and more. If the model answers in the wrong format, each agent reply may take up to 2 repair requests more, within the run's limit.",
    );
    assert.match(
      forecastSentence(forecastStages(undefined), undefined),
      /tokens \(price of this model unknown\) and more\./,
    );
    assert.equal(forecastSentence([], 0), 'No stage is left to run.');
  });
});
