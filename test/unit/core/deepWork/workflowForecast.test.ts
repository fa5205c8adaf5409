import * as assert from 'node:assert/strict';
import { parseWorkflow } from '../../../../src/core/workflow/definition/parseWorkflow';
import { WORKFLOW_TEMPLATE } from '../../../../src/core/workflow/definition/workflowTemplate';
import { DEEP_WORK_AGENT_TYPES } from '../../../../src/core/deepWork/runDeepWork';
import {
  agentForecast,
  DEEP_WORK_TOKENS_PER_REQUEST,
  mostTokensPerRequest,
  forecastWorkflow,
  phaseFloorOf,
  workflowForecastSentence,
  type PhaseForecast,
} from '../../../../src/core/deepWork/workflowForecast';
import type { LedgerLine } from '../../../../src/core/llm/spending/ledger';
import { builtInWorkflow } from '../../../support/builtInWorkflow';
import { pipelineModel } from '../../../support/pipelineScript';
import { runFixture } from '../plan/stages/harness';
import { phase, strict, workflow } from '../workflow/engine/workflowHarness';

/** The priors of a Markdown role's request and of a script's `thinkHard` (before any run measured them). */
const MARKDOWN = { input: 700, output: 300 };
const SCRIPT = { input: 1_500, output: 300 };

describe("a workflow's request forecast", () => {
  it('counts each listed agent by what its type may take and usually takes; a model without tools does not explore', () => {
    assert.deepEqual(agentForecast('reviewer', undefined), {
      agents: 1,
      requests: { fewest: 1, most: 1 },
      expected: 1,
    });
    assert.deepEqual(agentForecast('code-scout', undefined), {
      agents: 1,
      requests: { fewest: 2, most: 4 },
      expected: 3,
    });
    assert.deepEqual(agentForecast('code-scout', undefined, { supportsToolCalling: false }), {
      agents: 1,
      requests: { fewest: 1, most: 1 },
      expected: 1,
    });
    assert.deepEqual(
      agentForecast('ticket-stage', undefined),
      { expected: 10, pending: 'one agent per ticket planning makes (2–3 requests each, plus 1)' },
      'one agent per ticket: its bound known only after planning; probably one ticket per planning agent',
    );
    const forecast = forecastWorkflow(
      workflow([phase('a', strict('reviewer', 'code-scout')), phase('b', strict('writer'))]),
    );
    assert.deepEqual(forecast, [
      { phase: 'a', agents: 2, requests: { fewest: 3, most: 5 }, expected: 4, each: MARKDOWN, open: [] },
      { phase: 'b', agents: 1, requests: { fewest: 1, most: 1 }, expected: 1, each: MARKDOWN, open: [] },
    ]);
    assert.equal(
      workflowForecastSentence(forecast, { input: 3, output: 15 }),
      "Still to run: a (2 agents) about 4, at most 5; b (1 agent) about 1, at most 1: about 5 requests and 5.0k tokens (≈ 3.3 credits); at most 6 requests and 42k tokens (≈ 20 credits). If the model answers in the wrong format, each agent reply may take up to 2 repair requests more, within the run's limit.",
    );
    assert.match(
      workflowForecastSentence(forecast, undefined),
      /: about 5 requests and 5\.0k tokens \(price of this model unknown\); at most 6 requests and 42k tokens \(price of this model unknown\)\. /,
    );
    assert.equal(workflowForecastSentence([], 0), 'No phase is left to run.');
  });

  it('re-forecasts tokens from what the run spent: the phases left scaled as its own differed, the bound half again its mean (never below the usual bound)', () => {
    // Phase a's reviewer was expected to take 1 request of ~1,000 tokens; it took 4 of 2,200.
    const spending: LedgerLine[] = [
      { who: 'a', step: 'phase a', model: 'm', requests: 4, inputTokens: 8_000, outputTokens: 800 },
    ];
    assert.deepEqual(mostTokensPerRequest({ spending }), DEEP_WORK_TOKENS_PER_REQUEST);
    const dear: LedgerLine[] = [{ ...spending[0]!, inputTokens: 40_000, outputTokens: 4_000 }];
    assert.deepEqual(mostTokensPerRequest({ spending: dear }), { input: 15_000, output: 1_500 });
    const definition = workflow([phase('a', strict('reviewer')), phase('b', strict('writer'))]);
    const [b] = forecastWorkflow(definition, {
      nextPhase: 'b',
      context: { skip_phases: [] },
      blackboard: {},
      spending,
    });
    assert.deepEqual(b?.each, { input: Math.round(700 * 2.2), output: Math.round(300 * 2.2) });
    assert.match(
      workflowForecastSentence(b ? [b] : [], undefined, mostTokensPerRequest({ spending: dear })),
      /: about 1 request and 2\.2k tokens \(price of this model unknown\); at most 1 request and 17k tokens/,
    );
    // A run far dearer than its forecast scales the rest by at most 4.
    const [far] = forecastWorkflow(definition, {
      nextPhase: 'b',
      context: { skip_phases: [] },
      blackboard: {},
      spending: dear,
    });
    assert.deepEqual(far?.each, { input: 2_800, output: 1_200 });
  });

  it('from the next phase, without skipped ones; the bound counts gap-check retries and script caps, the expected figure the calls a script names', () => {
    const definition = workflow([
      phase('a', strict('reviewer')),
      phase('b', strict('writer'), {
        gapCheck: { kind: 'script', maxIterations: 2, script: "return { status: 'complete' }" },
      }),
      phase('c', { mode: 'loose', behavior: 'main-only', mainScript: "await thinkHard('x')", suggestedSubagents: [] }),
      phase('d', strict('writer')),
    ]);
    const forecast = forecastWorkflow(definition, { nextPhase: 'b', context: { skip_phases: ['d'] }, blackboard: {} });
    // b: its writer, then up to 2 gap-check scripts (20 calls each) and one retry, which may add up to 8 agents.
    assert.deepEqual(forecast, [
      {
        phase: 'b',
        agents: 1,
        requests: { fewest: 1, most: 1 + 2 * 20 + 8 * 4 },
        expected: 1,
        each: MARKDOWN,
        open: [],
      },
      { phase: 'c', requests: { fewest: 0, most: 20 }, expected: 1, each: SCRIPT, scriptRequests: 20, open: [] },
    ]);
    assert.match(
      workflowForecastSentence(forecast, undefined),
      /^Still to run: b \(1 agent\) about 1, at most 73; c about 1, at most 20, 20 of them its script's `thinkHard` cap: about 2 requests and 2\.8k tokens .*; at most 93 requests and 651k tokens /,
    );
    // The cap the user set counts, not the default: a script phase is never "0 and more".
    const capped = forecastWorkflow(definition, { nextPhase: 'c', context: { skip_phases: ['d'] }, blackboard: {} }, 5);
    assert.deepEqual(capped, [
      { phase: 'c', requests: { fewest: 0, most: 5 }, expected: 1, each: SCRIPT, scriptRequests: 5, open: [] },
    ]);
    assert.match(workflowForecastSentence(capped, 0), /^Still to run: c about 1, at most 5, 5 of them its script's /);
    // The engine's check before each phase: the fewest requests that can be counted ahead, or none to check.
    const floor = phaseFloorOf(definition);
    const [b, c] = definition.phases.filter(p => p.id === 'b' || p.id === 'c');
    assert.ok(b && c);
    assert.deepEqual(floor.smallest(b), {
      what: 'the `b` phase',
      fewestRequests: 1,
      expected: { requests: 1, each: MARKDOWN },
    });
    assert.equal(floor.smallest(c), undefined, 'a phase that makes none ahead');
  });

  it('the template: its adaptive scan bounded by the phase cap, its agents expected as its script names them', () => {
    const parsed = parseWorkflow(
      WORKFLOW_TEMPLATE,
      { kind: 'workspace', path: 'x.yaml' },
      { knownTypes: DEEP_WORK_AGENT_TYPES },
    );
    assert.ok(parsed.ok);
    if (!parsed.ok) return;
    const noTools = { supportsToolCalling: false };
    assert.deepEqual(forecastWorkflow(parsed.workflow, undefined, 5, noTools), [
      // code-scout, up to 7 more agents (8 a phase), the adaptive script's cap; probably the two it names.
      {
        phase: 'scan',
        requests: { fewest: 1, most: 1 + 7 + 5 },
        expected: 3,
        each: MARKDOWN,
        scriptRequests: 5,
        open: [],
      },
      // Its gap check escalates: no retry.
      { phase: 'review', agents: 2, requests: { fewest: 2, most: 2 }, expected: 2, each: MARKDOWN, open: [] },
      { phase: 'report', requests: { fewest: 0, most: 5 }, expected: 1, each: SCRIPT, scriptRequests: 5, open: [] },
    ]);
    const withTools = forecastWorkflow(parsed.workflow)[0];
    assert.deepEqual(withTools?.requests, { fewest: 2, most: 4 + 7 * 4 + 20 }, 'code-scout explores; so may the added');
    assert.equal(withTools?.expected, 3 + 2 * 3);
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
      // The fixture's agents read once, then report, as the expected figure takes them.
      assert.equal(
        at.forecast?.expected,
        made,
        `${at.forecast?.phase}: expected ${at.forecast?.expected}, made ${made}`,
      );
    });
    // Once discovery is done, planning's agents are known: 2 recommendations -> 2 agents, 1 request each, + the collector.
    // Its bound (REPETITION_BOUNDS): three collector rounds rerunning both agents, one rebuilt context (the context
    // manager's 6 requests and the agent again) and the context manager routing a `proceed` (6); a route-back from
    // planning runs discovery and planning again.
    const { each: _each, ...planning } = stages[1]!.forecast!;
    assert.deepEqual(planning, {
      phase: 'planning',
      agents: 2,
      requests: { fewest: 3, most: 3 * (2 + 1) + (6 + 1) + 6 },
      expected: 3,
      open: [],
      routeBack: stages[0]!.forecast!.requests.most + planning.requests.most,
    });
    assert.equal(seen[2]!.callsBefore - seen[1]!.callsBefore, 3);
    assert.equal(stages[2]?.forecast?.agents, 2, 'one ticket agent per ticket');
  });

  it('says what is known and what is not, in one sentence', () => {
    const start = workflowForecastSentence(forecastWorkflow(builtInWorkflow('plan')), { input: 0.25, output: 2 });
    assert.equal(
      start,
      "Still to run: discovery about 10, at most 65; planning about 4, at most 25; tickets about 10; one agent per ticket planning makes (2–3 requests each, plus 1): about 24 requests and 37k tokens (≈ 1.9 credits); at most 180 requests and 1.3M tokens (≈ 63 credits), one route-back to an earlier stage included (up to 90 requests) (tickets not in the most until the stage before it has run). If the model answers in the wrong format, each agent reply may take up to 2 repair requests more, within the run's limit.",
    );
  });
});
