import * as assert from 'node:assert/strict';
import { parseWorkflow } from '../../../../src/core/workflow/definition/parseWorkflow';
import { WORKFLOW_TEMPLATE } from '../../../../src/core/workflow/definition/workflowTemplate';
import { DEEP_WORK_AGENT_TYPES } from '../../../../src/core/deepWork/runDeepWork';
import {
  agentRequests,
  forecastWorkflow,
  workflowForecastSentence,
} from '../../../../src/core/deepWork/workflowForecast';
import { builtInWorkflow } from '../../../support/builtInWorkflow';
import { phase, strict, workflow } from '../workflow/engine/workflowHarness';

describe("a workflow's request forecast", () => {
  it('counts each listed agent by what its type may take', () => {
    assert.deepEqual(agentRequests('reviewer'), { fewest: 1, most: 1 });
    assert.deepEqual(agentRequests('code-scout'), { fewest: 2, most: 4 });
    assert.equal(agentRequests('ticket-stage'), undefined, 'one agent per ticket: known only after planning');
    const forecast = forecastWorkflow(
      workflow([phase('a', strict('reviewer', 'code-scout')), phase('b', strict('writer'))]),
    );
    assert.deepEqual(forecast, { requests: { fewest: 4, most: 6 }, open: [] });
    assert.equal(
      workflowForecastSentence(forecast, 0),
      "This run's agents make 4–6 model requests: ≈28k–42k tokens, no AI credits (this model costs none). If the model answers in the wrong format, each agent reply may take up to 2 repair requests more, within the run's limit.",
    );
    assert.match(
      workflowForecastSentence(forecast, { input: 3, output: 15 }),
      /: ≈28k–42k tokens, about 13–20 AI credits\. /,
    );
    assert.match(workflowForecastSentence(forecast, undefined), /: ≈28k–42k tokens \(price of this model unknown\)\. /);
  });

  it('from the next phase, without skipped ones; scripts, gap checks and ticket stages are named as open', () => {
    const definition = workflow([
      phase('a', strict('reviewer')),
      phase('b', strict('writer'), {
        gapCheck: { kind: 'script', maxIterations: 2, script: "return { status: 'complete' }" },
      }),
      phase('c', { mode: 'loose', behavior: 'main-only', mainScript: "await thinkHard('x')", suggestedSubagents: [] }),
      phase('d', strict('writer')),
    ]);
    assert.deepEqual(forecastWorkflow(definition, 'b', ['d']), { requests: { fewest: 1, most: 1 }, open: ['b', 'c'] });
    assert.match(
      workflowForecastSentence(forecastWorkflow(definition, 'b', ['d']), undefined),
      /^This run's agents make 1 model request, plus what `b`, `c` decide during the run/,
    );
  });

  it('the built-in plan and the template have forecasts that match what their runs can make', () => {
    const plan = forecastWorkflow(builtInWorkflow('plan'));
    assert.deepEqual(plan.open, ['tickets']);
    assert.ok(
      plan.requests.fewest <= 20 && 20 <= plan.requests.most + 7,
      `the bench's /plan run makes 20 (tickets: 7): ${JSON.stringify(plan)}`,
    );
    const parsed = parseWorkflow(
      WORKFLOW_TEMPLATE,
      { kind: 'workspace', path: 'x.yaml' },
      { knownTypes: DEEP_WORK_AGENT_TYPES },
    );
    assert.ok(parsed.ok);
    if (parsed.ok) assert.deepEqual(forecastWorkflow(parsed.workflow).open, ['scan', 'review', 'report']);
  });
});
