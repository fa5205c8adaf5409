import * as assert from 'node:assert/strict';
import { parseWorkflow } from '../../../../src/core/workflow/definition/parseWorkflow';
import { WORKFLOW_TEMPLATE } from '../../../../src/core/workflow/definition/workflowTemplate';
import { DEEP_WORK_AGENT_TYPES } from '../../../../src/core/deepWork/runDeepWork';
import {
  agentForecast,
  forecastWorkflow,
  phaseFloorOf,
  workflowForecastSentence,
  type PhaseForecast,
} from '../../../../src/core/deepWork/workflowForecast';
import { builtInWorkflow } from '../../../support/builtInWorkflow';
import { pipelineModel } from '../../../support/pipelineScript';
import { runFixture } from '../plan/stages/harness';
import { phase, strict, workflow } from '../workflow/engine/workflowHarness';

describe("a workflow's request forecast", () => {
  it('counts each listed agent by what its type may take', () => {
    assert.deepEqual(agentForecast('reviewer', undefined), { agents: 1, requests: { fewest: 1, most: 1 } });
    assert.deepEqual(agentForecast('code-scout', undefined), { agents: 1, requests: { fewest: 2, most: 4 } });
    assert.deepEqual(
      agentForecast('ticket-stage', undefined),
      { pending: 'one agent per ticket planning makes (2–3 requests each, plus 1)' },
      'one agent per ticket: known only after planning',
    );
    const forecast = forecastWorkflow(
      workflow([phase('a', strict('reviewer', 'code-scout')), phase('b', strict('writer'))]),
    );
    assert.deepEqual(forecast, [
      { phase: 'a', agents: 2, requests: { fewest: 3, most: 5 }, open: [] },
      { phase: 'b', agents: 1, requests: { fewest: 1, most: 1 }, open: [] },
    ]);
    assert.equal(
      workflowForecastSentence(forecast, 0),
      "Still to run: a (2 agents) 3–5; b (1 agent) 1: 4–6 model requests, ≈28k–42k tokens, no AI credits (this model costs none). If the model answers in the wrong format, each agent reply may take up to 2 repair requests more, within the run's limit.",
    );
    assert.match(
      workflowForecastSentence(forecast, { input: 3, output: 15 }),
      /: 4–6 model requests, ≈28k–42k tokens, about 13–20 AI credits\. /,
    );
    assert.match(workflowForecastSentence(forecast, undefined), /, ≈28k–42k tokens \(price of this model unknown\)\. /);
    assert.equal(workflowForecastSentence([], 0), 'No phase is left to run.');
  });

  it('from the next phase, without skipped ones; says per phase what its script and gap check add', () => {
    const definition = workflow([
      phase('a', strict('reviewer')),
      phase('b', strict('writer'), {
        gapCheck: { kind: 'script', maxIterations: 2, script: "return { status: 'complete' }" },
      }),
      phase('c', { mode: 'loose', behavior: 'main-only', mainScript: "await thinkHard('x')", suggestedSubagents: [] }),
      phase('d', strict('writer')),
    ]);
    const forecast = forecastWorkflow(definition, { nextPhase: 'b', context: { skip_phases: ['d'] }, blackboard: {} });
    assert.deepEqual(forecast, [
      { phase: 'b', agents: 1, requests: { fewest: 1, most: 1 }, open: ['gap-check retries'] },
      { phase: 'c', requests: { fewest: 0, most: 20 }, scriptRequests: 20, open: [] },
    ]);
    assert.match(
      workflowForecastSentence(forecast, undefined),
      /^Still to run: b \(1 agent\) 1 plus gap-check retries; c 0–20 \(up to 20 of them its script's `thinkHard`, its cap\): 1–21 and more model requests, .* and more\. /,
    );
    // The cap the user set counts, not the default: a script phase is never "0 and more".
    const capped = forecastWorkflow(definition, { nextPhase: 'c', context: { skip_phases: ['d'] }, blackboard: {} }, 5);
    assert.deepEqual(capped, [{ phase: 'c', requests: { fewest: 0, most: 5 }, scriptRequests: 5, open: [] }]);
    assert.match(
      workflowForecastSentence(capped, 0),
      /^Still to run: c 0–5 \(up to 5 of them its script's `thinkHard`, its cap\): 0–5 model requests, /,
    );
    // The engine's check before each phase: the fewest requests that can be counted ahead, or none to check.
    const floor = phaseFloorOf(definition);
    const [b, c] = definition.phases.filter(p => p.id === 'b' || p.id === 'c');
    assert.ok(b && c);
    assert.deepEqual(floor.smallest(b), { what: 'the `b` phase', fewestRequests: 1 });
    assert.equal(floor.smallest(c), undefined, 'a phase that makes none ahead');
  });

  it('the template names what its phases decide during the run, and counts its script phase by its cap', () => {
    const parsed = parseWorkflow(
      WORKFLOW_TEMPLATE,
      { kind: 'workspace', path: 'x.yaml' },
      { knownTypes: DEEP_WORK_AGENT_TYPES },
    );
    assert.ok(parsed.ok);
    if (!parsed.ok) return;
    const forecast = forecastWorkflow(parsed.workflow);
    assert.deepEqual(
      forecast.filter(f => f.open.length).map(f => f.phase),
      ['scan', 'review'],
    );
    assert.deepEqual(
      forecast.filter(f => f.scriptRequests).map(f => f.phase),
      ['scan', 'report'],
    );
  });
});

describe("/plan's request forecast", () => {
  it('at the start and at every checkpoint, the next stage makes a number of requests within its forecast; planning and tickets exactly once their agents are known', async () => {
    const plan = builtInWorkflow('plan');
    const model = pipelineModel();
    const seen: { readonly forecast: PhaseForecast | undefined; readonly callsBefore: number }[] = [
      { forecast: forecastWorkflow(plan)[0], callsBefore: 0 },
    ];
    const { outcome } = await runFixture(model, {
      checkpoint: async (_pending, state) => {
        seen.push({ forecast: forecastWorkflow(plan, state)[0], callsBefore: model.requests.length });
        return 'continue';
      },
    });
    assert.equal(outcome.status, 'completed');
    // The plan workflow has no checkpoint after tickets: the run's end closes the last stage, with nothing left.
    assert.deepEqual(forecastWorkflow(plan, outcome.state), []);
    seen.push({ forecast: undefined, callsBefore: model.requests.length });
    const stages = seen.slice(0, -1);
    assert.deepEqual(
      stages.map(s => s.forecast?.phase),
      ['discovery', 'planning', 'tickets'],
    );
    stages.forEach((at, i) => {
      const made = seen[i + 1]!.callsBefore - at.callsBefore;
      const requests = at.forecast?.requests;
      assert.ok(requests && at.forecast?.open.length === 0, `${at.forecast?.phase}: a forecast`);
      assert.ok(
        made >= requests.fewest && made <= requests.most,
        `${at.forecast?.phase}: ${made} requests, forecast ${requests.fewest}–${requests.most}`,
      );
    });
    // Once discovery is done, planning's agents are known: 2 recommendations -> 2 agents, 1 request each, + the collector.
    assert.deepEqual(stages[1]?.forecast, { phase: 'planning', agents: 2, requests: { fewest: 3, most: 3 }, open: [] });
    assert.equal(seen[2]!.callsBefore - seen[1]!.callsBefore, 3);
    assert.equal(stages[2]?.forecast?.agents, 2, 'one ticket agent per ticket');
  });

  it('says what is known and what is not, in one sentence', () => {
    const start = workflowForecastSentence(forecastWorkflow(builtInWorkflow('plan')), { input: 0.25, output: 2 });
    assert.equal(
      start,
      "Still to run: discovery 3–16; planning 2–4; tickets one agent per ticket planning makes (2–3 requests each, plus 1): 5–20 and more model requests, ≈35k–140k tokens, about 1.8–7.0 AI credits and more. If the model answers in the wrong format, each agent reply may take up to 2 repair requests more, within the run's limit.",
    );
    assert.match(
      workflowForecastSentence(forecastWorkflow(builtInWorkflow('plan')), undefined),
      /tokens \(price of this model unknown\) and more\./,
    );
  });
});
