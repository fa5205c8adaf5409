import * as assert from 'node:assert/strict';
import { forecastHistory, type MeasuredRun } from '../../../../src/core/deepWork/forecastHistory';
import { forecastFigures, forecastWorkflow } from '../../../../src/core/deepWork/workflowForecast';
import type { LedgerLine } from '../../../../src/core/llm/spending/ledger';
import { phase, strict, workflow } from '../workflow/engine/workflowHarness';

function run(
  runId: string,
  name: string,
  completed: readonly string[],
  spending: readonly LedgerLine[],
  passes: Record<string, number> = {},
): MeasuredRun {
  return {
    runId,
    spending: [...spending],
    context: { workflow: { name }, phases: { completed: [...completed], iteration_counts: passes } },
  };
}

const line = (step: string, requests: number, inputTokens: number, outputTokens: number): LedgerLine => ({
  who: 'agent',
  step,
  model: 'm',
  requests,
  inputTokens,
  outputTokens,
});

describe("a deep-work forecast's history (what earlier runs in the workspace measured)", () => {
  const runs = [
    // Newest first. Phase a ran twice in this one (a checkpoint's repeat): 8 requests over 2 passes.
    run('wf-2', 'review', ['a', 'b'], [line('phase a', 8, 8_000, 1_600), line('phase b', 1, 3_000, 500)], { a: 2 }),
    run('wf-1', 'review', ['a'], [line('phase a', 2, 4_000, 400), line('phase b', 3, 9_000, 900)]),
    run('wf-0', 'other', ['a'], [line('phase a', 50, 1_000_000, 1_000)]),
    run('wf-now', 'review', ['a'], [line('phase a', 40, 40_000, 4_000)]),
  ];

  it("measures requests per pass and tokens per request of each phase the workflow's runs completed, not the run forecast", () => {
    const history = forecastHistory('review', runs, 'wf-now');
    // a: (8 + 2) requests over 3 passes; (12k in, 2k out) over 10 requests. b only from the run that completed it.
    assert.deepEqual(history.get('a'), { requestsPerPass: 10 / 3, each: { input: 1_200, output: 200 } });
    assert.deepEqual(history.get('b'), { requestsPerPass: 1, each: { input: 3_000, output: 500 } });
    assert.equal(forecastHistory('missing', runs).size, 0);
  });

  it('replaces the priors of a new run: its expected requests (within the bound) and tokens per request', () => {
    const definition = workflow([phase('a', strict('code-scout')), phase('b', strict('reviewer'))]);
    const fresh = forecastWorkflow(definition);
    const history = forecastHistory('review', runs, 'wf-now');
    const learnt = forecastWorkflow(definition, undefined, undefined, undefined, history);
    assert.deepEqual(
      fresh.map(f => [f.expected, f.each]),
      [
        [3, { input: 700, output: 300 }],
        [1, { input: 700, output: 300 }],
      ],
    );
    assert.deepEqual(
      learnt.map(f => [f.expected, f.each]),
      [
        [3, { input: 1_200, output: 200 }],
        [1, { input: 3_000, output: 500 }],
      ],
    );
    assert.deepEqual(
      learnt.map(f => f.requests),
      fresh.map(f => f.requests),
      'the bound is what the engine allows, whatever earlier runs took',
    );
    assert.equal(forecastFigures(learnt, undefined).expected.tokens, 3 * 1_400 + 3_500);
    // A run that made more than a phase's bound does not lift the expected figure past it.
    const dear = forecastHistory('review', [run('wf-9', 'review', ['b'], [line('phase b', 9, 9_000, 900)])]);
    assert.equal(forecastWorkflow(definition, undefined, undefined, undefined, dear)[1]?.expected, 1);
  });
});
