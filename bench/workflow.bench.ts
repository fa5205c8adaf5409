/**
 * Workflows (spec 002): what the script sandbox costs, and how close a user workflow's wall time comes to the
 * critical path of its model calls.
 *   npx tsx bench/workflow.bench.ts   (BENCH_TTFT_MS, BENCH_TOKENS_PER_S, BENCH_TIME_SCALE, BENCH_RUNS as for the council)
 * - sandbox: the first script of a session (reads and compiles the engine), then each later script (a fresh runtime
 *   in the engine the last one left), and a script's host calls (awaited, excluded from its CPU time);
 * - the "Council: Create Workflow" template (adaptive scan, a sequential review with a criteria gap check, a
 *   script that thinks and writes, finalization) run end to end under the council bench's latency model (each agent
 *   writes a ~250-token Markdown report), every checkpoint continued: wall time against the heaviest chain of calls
 *   that had to follow one another, requests and tokens against the forecast shown before each phase.
 */
import {
  neverCancelled,
  type CancellationSignal,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
} from '../src/core/llm/languageModel';
import { optionFor } from '../src/core/workflow/engine/checkpoints';
import { runSpent, type WorkflowRunState } from '../src/core/workflow/engine/workflowRunState';
import { forecastHistory, type ForecastHistory } from '../src/core/deepWork/forecastHistory';
import { InMemoryWorkspaceReader } from '../test/support/inMemoryWorkspaceReader';
import { parseWorkflow } from '../src/core/workflow/definition/parseWorkflow';
import { WORKFLOW_TEMPLATE } from '../src/core/workflow/definition/workflowTemplate';
import { InMemoryRunOutputs } from '../test/support/inMemoryRunOutputs';
import { DEEP_WORK_AGENT_TYPES, runDeepWork } from '../src/core/deepWork/runDeepWork';
import { QuickJsSandbox } from '../src/core/workflow/sandbox/quickJsSandbox';
import { counterIds, FIXTURE_FILES, newRunId, steppingClock } from '../test/support/pipelineScript';
import { loadQuickJsWasm } from '../test/support/quickJsWasm';
import { PriceBook } from '../src/core/llm/spending/prices';
import { creditsAtPricePoints } from './pricePoints';
import { forecastLine, ForecastTally, type ForecastFigures } from './forecastTally';
import { benchRunsFromEnv, LatencyModel, latencyProfileFromEnv, scriptedReplies } from './latencyModel';
import { ownTimeText, runTiming, type RunTiming, type WorkInterval } from './runTiming';
import type { ScriptSandbox } from '../src/core/workflow/sandbox/scriptSandbox';

const PROFILE = latencyProfileFromEnv();

/** A Markdown report of about 250 tokens: what a template agent writes. */
const REPORT_BODY = Array.from(
  { length: 8 },
  (_, i) =>
    `- Finding ${i + 1}: \`src/app.ts\` rounds with toFixed before it adds, so sums of cents drift; checked against the tests, which cover only whole numbers.`,
).join('\n');

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** A model that answers every request at once with a Markdown report (the latency model times it). */
class ReportingModel implements LanguageModel {
  readonly id = 'bench';
  readonly name = 'Bench model';
  readonly family = 'bench';
  readonly vendor = 'bench';
  readonly maxInputTokens = 128_000;
  readonly supportsToolCalling = false;
  private replies = 0;

  async *sendRequest(_request: ModelRequest, _token: CancellationSignal): AsyncIterable<ResponsePart> {
    this.replies += 1;
    yield { kind: 'text', text: `# Report ${this.replies}\n\n${REPORT_BODY}` };
  }

  countTokens(text: string): Promise<number> {
    return Promise.resolve(Math.ceil(text.length / 4));
  }
}

export async function main() {
  // The sandbox.
  const sandbox = new QuickJsSandbox(loadQuickJsWasm);
  const firstScriptMs = await timed(() => sandbox.run({ mode: 'body', code: 'return 1' }));
  const scriptRuns: number[] = [];
  for (let i = 0; i < 30; i++)
    scriptRuns.push(
      await timed(() =>
        sandbox.run({
          mode: 'expression',
          code: 'context.subagents_spawned > 0',
          globals: { context: { subagents_spawned: 2 } },
        }),
      ),
    );
  const hostRuns: number[] = [];
  for (let i = 0; i < 10; i++) {
    hostRuns.push(
      await timed(() =>
        sandbox.run({
          mode: 'body',
          code: 'let n = 0; for (let i = 0; i < 100; i++) n += await next(i); return n',
          functions: { next: async value => Number(value) },
        }),
      ),
    );
  }
  const perHostCallMs = (median(hostRuns) - median(scriptRuns)) / 100;

  // The template workflow end to end: a first run loads the modules (see the pipeline bench); then BENCH_RUNS timed.
  // The timed runs' forecasts learn from the first, as the chat's learn from the workspace's run store.
  const history = forecastHistory('code-review', [(await templateRun(sandbox)).state]);
  const runs: TemplateRun[] = [];
  for (let i = 0; i < benchRunsFromEnv(); i++) runs.push(await templateRun(sandbox, history));
  const template = [...runs].sort((a, b) => a.timing.ratio - b.timing.ratio)[Math.floor(runs.length / 2)]!;
  const result = {
    firstScriptMs,
    scriptMs: median(scriptRuns),
    perHostCallMs,
    templateRequests: template.requests,
    templateCriticalCalls: template.timing.chainCalls,
    templateWallMs: median(runs.map(run => run.timing.wallMs)),
    templateBoundMs: median(runs.map(run => run.timing.boundMs)),
    templateRatio: template.timing.ratio,
    templateOwnTime: ownTimeText(template.timing),
    templateInputTokens: template.inputTokens,
    templateOutputTokens: template.outputTokens,
    templateCredits: creditsAtPricePoints(template.inputTokens, template.outputTokens),
    templateForecast: template.forecast,
  };
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    'workflow bench: TTFT %d ms, %d tokens/s, time scale %s; the template %d timed runs (medians, model time)',
    PROFILE.ttftMs,
    PROFILE.tokensPerSecond,
    PROFILE.scale,
    runs.length,
  );
  console.log(
    '  sandbox: first script %s ms (reads and compiles the engine), later scripts %s ms each (a fresh runtime in the kept engine), %s ms per awaited host call',
    firstScriptMs.toFixed(1),
    result.scriptMs.toFixed(1),
    perHostCallMs.toFixed(3),
  );
  console.log(
    '  template workflow: %d requests, wall %s, critical-path bound %s (%d calls), wall / bound %sx (aim <= 1.05)',
    template.requests,
    s(result.templateWallMs),
    s(result.templateBoundMs),
    template.timing.chainCalls,
    result.templateRatio.toFixed(2),
  );
  console.log('  where the rest went: %s', result.templateOwnTime);
  console.log(
    '  template tokens: %d in, %d out; credits (0-cost / $0.25/$2 / $3/$15 per M) %s',
    template.inputTokens,
    template.outputTokens,
    result.templateCredits,
  );
  console.log('  template forecast: %s', forecastLine(template.forecast));
  return result;
}

interface TemplateRun {
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The forecast shown before each phase (at the start and at each checkpoint), summed, against what was spent. */
  readonly forecast: ForecastFigures;
  readonly timing: RunTiming;
  readonly state: WorkflowRunState;
}

/** One run of the Create Workflow template, every checkpoint continued. */
async function templateRun(sandbox: QuickJsSandbox, history?: ForecastHistory): Promise<TemplateRun> {
  const parsed = parseWorkflow(
    WORKFLOW_TEMPLATE,
    { kind: 'workspace', path: '.council/workflows/code-review.yaml' },
    { knownTypes: DEEP_WORK_AGENT_TYPES },
  );
  if (!parsed.ok) throw new Error('the template does not parse');
  // Every script run, timed: how much of Council's own time on the critical path the sandbox takes.
  const scripts: WorkInterval[] = [];
  const timedSandbox: ScriptSandbox = {
    run: async script => {
      const start = performance.now();
      try {
        return await sandbox.run(script);
      } finally {
        scripts.push({ what: 'scripts', start, end: performance.now() });
      }
    },
  };
  const reporting = new ReportingModel();
  const model = new LatencyModel(
    reporting,
    PROFILE,
    scriptedReplies(text => reporting.countTokens(text)),
  );
  const clock = steppingClock();
  const ids = counterIds();
  const runId = newRunId(ids);
  // What each phase was forecast to make, taken where the chat shows it: at the start and at each checkpoint.
  const forecast = new ForecastTally(parsed.workflow, model, history);
  forecast.shown();
  const started = performance.now();
  const request = {
    workflow: parsed.workflow,
    model,
    reader: new InMemoryWorkspaceReader(FIXTURE_FILES),
    runId,
    outputs: new InMemoryRunOutputs(`.council/runs/${runId}`),
    clock,
    ids,
    token: neverCancelled,
    sandbox: timedSandbox,
    spending: { limits: {}, prices: new PriceBook() },
  };
  let outcome = await runDeepWork({ ...request, start: { goal: 'Review the calculator and fix its rounding bug.' } });
  // Every checkpoint pauses the run; Continue resumes it.
  while (outcome.status === 'paused') {
    forecast.shown(outcome.state);
    const decision = optionFor(outcome.checkpoint, { action: 'continue' });
    if (!decision) break;
    outcome = await runDeepWork({ ...request, resume: { state: outcome.state, decision } });
  }
  const finished = performance.now();
  if (outcome.status !== 'completed') throw new Error(`the template run ended ${outcome.status}`);
  const spent = runSpent(outcome.state);
  return {
    requests: spent.requests,
    inputTokens: spent.inputTokens,
    outputTokens: spent.outputTokens,
    forecast: forecast.against(outcome.state),
    timing: runTiming(model.calls, started, finished, PROFILE, scripts),
    state: outcome.state,
  };
}

// Run directly (not when imported by a combined bench).
if (process.argv[1]?.endsWith('workflow.bench.ts')) {
  main().catch(error => {
    console.error(error);
    process.exitCode = 1;
  });
}
