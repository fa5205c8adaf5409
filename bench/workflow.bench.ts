/**
 * Workflows (spec 002): what the script sandbox costs, and how close a user workflow's wall time comes to the
 * critical path of its model calls.
 *   npx tsx bench/workflow.bench.ts
 * - sandbox: the first script of a session (reads and compiles the engine), then each later script (a fresh engine
 *   per run), and a script's host calls (awaited, excluded from its CPU time);
 * - the "Council: Create Workflow" template (adaptive scan, a sequential review with a criteria gap check, a
 *   script that thinks and writes, finalization) run end to end with every model call taking LATENCY_MS, every
 *   checkpoint continued: wall time against the longest chain of calls that had to follow one another.
 */
import {
  neverCancelled,
  type CancellationSignal,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
} from '../src/core/llm/languageModel';
import { optionFor } from '../src/core/workflow/engine/checkpoints';
import { runSpent } from '../src/core/workflow/engine/workflowRunState';
import { InMemoryWorkspaceReader } from '../test/support/inMemoryWorkspaceReader';
import { parseWorkflow } from '../src/core/workflow/definition/parseWorkflow';
import { WORKFLOW_TEMPLATE } from '../src/core/workflow/definition/workflowTemplate';
import { InMemoryRunOutputs } from '../test/support/inMemoryRunOutputs';
import { DEEP_WORK_AGENT_TYPES, runDeepWork } from '../src/core/deepWork/runDeepWork';
import { QuickJsSandbox } from '../src/core/workflow/sandbox/quickJsSandbox';
import { criticalPath, type TimedCall } from './criticalPath';
import { counterIds, FIXTURE_FILES, newRunId, steppingClock } from '../test/support/pipelineScript';
import { loadQuickJsWasm } from '../test/support/quickJsWasm';

const LATENCY_MS = 50;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** A model that answers every request with a short Markdown report after LATENCY_MS, recording when each ran. */
class TimedModel implements LanguageModel {
  readonly id = 'bench';
  readonly name = 'Bench model';
  readonly family = 'bench';
  readonly vendor = 'bench';
  readonly maxInputTokens = 128_000;
  readonly supportsToolCalling = false;
  readonly calls: TimedCall[] = [];

  async *sendRequest(_request: ModelRequest, _token: CancellationSignal): AsyncIterable<ResponsePart> {
    const start = performance.now();
    await new Promise(resolve => setTimeout(resolve, LATENCY_MS));
    this.calls.push({ start, end: performance.now() });
    yield { kind: 'text', text: `# Report ${this.calls.length}\n\nFindings, all checked.` };
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

  // The template workflow end to end, twice: the first run loads the modules (see the pipeline bench); the second is timed.
  await templateRun(sandbox);
  const template = await templateRun(sandbox);
  const result = {
    firstScriptMs,
    scriptMs: median(scriptRuns),
    perHostCallMs,
    templateRequests: template.requests,
    templateCriticalCalls: template.chain,
    templateWallMs: template.wallMs,
    templateRatio: template.wallMs / (template.chain * LATENCY_MS),
  };
  console.log('workflow bench (scripted model, %d ms per call)', LATENCY_MS);
  console.log(
    '  sandbox: first script %s ms (reads and compiles the engine), later scripts %s ms each (a fresh engine per run), %s ms per awaited host call',
    firstScriptMs.toFixed(1),
    result.scriptMs.toFixed(1),
    perHostCallMs.toFixed(3),
  );
  console.log(
    '  template workflow: %d requests, critical path %d calls x %d ms = %d ms, wall %d ms, ratio %s',
    template.requests,
    template.chain,
    LATENCY_MS,
    template.chain * LATENCY_MS,
    Math.round(template.wallMs),
    result.templateRatio.toFixed(2),
  );
  return result;
}

/** One run of the Create Workflow template, every checkpoint continued. */
async function templateRun(
  sandbox: QuickJsSandbox,
): Promise<{ readonly requests: number; readonly chain: number; readonly wallMs: number }> {
  const parsed = parseWorkflow(
    WORKFLOW_TEMPLATE,
    { kind: 'workspace', path: '.council/workflows/code-review.yaml' },
    { knownTypes: DEEP_WORK_AGENT_TYPES },
  );
  if (!parsed.ok) throw new Error('the template does not parse');
  const model = new TimedModel();
  const clock = steppingClock();
  const ids = counterIds();
  const runId = newRunId(ids);
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
    sandbox,
  };
  let outcome = await runDeepWork({ ...request, start: { goal: 'Review the calculator and fix its rounding bug.' } });
  // Every checkpoint pauses the run; Continue resumes it.
  while (outcome.status === 'paused') {
    const decision = optionFor(outcome.checkpoint, { action: 'continue' });
    if (!decision) break;
    outcome = await runDeepWork({ ...request, resume: { state: outcome.state, decision } });
  }
  const wallMs = performance.now() - started;
  if (outcome.status !== 'completed') throw new Error(`the template run ended ${outcome.status}`);
  return { requests: runSpent(outcome.state).requests, chain: criticalPath(model.calls).length, wallMs };
}

// Run directly (not when imported by a combined bench).
if (process.argv[1]?.endsWith('workflow.bench.ts')) {
  main().catch(error => {
    console.error(error);
    process.exitCode = 1;
  });
}
