/**
 * Pipeline benchmark: the full discovery -> planning -> tickets run against a scripted model under the council
 * bench's latency model (time to first token, then the reply at a token rate; bench/latencyModel.ts). Prints wall
 * time against the critical-path bound (the heaviest chain of calls that ran one after another, each weighted by its
 * nominal duration), calls, prompt and billed tokens, the forecasts beside what was spent, and how many downstream
 * prompt tokens the curated context saves over passing full results. Run: `npx tsx bench/pipeline.bench.ts`
 * (BENCH_TTFT_MS, BENCH_TOKENS_PER_S, BENCH_TIME_SCALE as for the council bench).
 */
import { z } from 'zod';
import { neverCancelled } from '../src/core/llm/languageModel';
import { jsonSchemaOf } from '../src/core/llm/structuredOutput';
import { discoveryReportRequest } from '../src/core/plan/drafts/discoveryReportRequest';
import { PriceBook } from '../src/core/llm/spending/prices';
import { countPromptTokens } from '../src/core/llm/usage';
import { optionFor } from '../src/core/workflow/engine/checkpoints';
import { runSpent, type WorkflowRunState } from '../src/core/workflow/engine/workflowRunState';
import { HANDOFF_LAYERS, layerOf } from '../src/core/plan/stages/handoffCatalogue';
import { creditsAtPricePoints, PRICE_POINTS_LABEL } from './pricePoints';
import { forecastLine, ForecastTally, type ForecastFigures } from './forecastTally';
import { forecastHistory, type ForecastHistory } from '../src/core/deepWork/forecastHistory';
import { benchRunsFromEnv, LatencyModel, latencyProfileFromEnv, scriptedReplies } from './latencyModel';
import { ownTimeText, runTiming, type RunTiming } from './runTiming';
import { InMemoryRunOutputs } from '../test/support/inMemoryRunOutputs';
import { defaultContributors, runDeepWork } from '../src/core/deepWork/runDeepWork';
import { episodicMemoryContributor, type EpisodicMemory } from '../src/core/plan/contributors/episodicMemory';
import { RunStore } from '../src/vscode/deepWork/runStore';
import { MemoryMemento } from '../test/support/memoryMemento';
import { readBoard, type PipelineBoard } from '../src/core/plan/pipelineBoard';
import { builtInWorkflow } from '../test/support/builtInWorkflow';
import { ticketUpstream } from '../src/core/plan/stages/tickets/ticketUpstream';
import { discoveryForPlanning } from '../src/core/plan/stages/planning/discoveryForPlanning';
import { InMemoryWorkspaceReader } from '../test/support/inMemoryWorkspaceReader';
import { benchFiles, citingReport } from '../test/support/benchWorkspace';
import { PlanningAgentPrompt } from '../src/core/plan/prompts/planningAgentPrompt';
import { TicketAgentPrompt } from '../src/core/plan/prompts/ticketAgentPrompt';
import { renderMessages } from '../src/core/llm/prompting/render';
import { counterIds, newRunId, pipelineModel, steppingClock } from '../test/support/pipelineScript';
import type { ScriptedModel } from '../test/support/scriptedModel';

const PROFILE = latencyProfileFromEnv();

/** Downstream prompt tokens, rendering planning and ticket agent prompts with the curated context and with full results. */
/** The tokens of the messages of every request the model was sent (tool schemas not included). */
async function messageTokens(model: ScriptedModel): Promise<number> {
  const counts = await Promise.all(model.requests.map(request => countPromptTokens(model, request.messages)));
  return counts.reduce((sum, n) => sum + n, 0);
}

async function downstreamTokens(
  state: PipelineBoard,
  model: ScriptedModel,
): Promise<{ curated: number; full: number }> {
  const discovery = state.stages.discovery;
  const planning = state.stages.planning;
  if (!discovery || !planning) throw new Error('the bench run did not complete planning');
  const curatedDiscovery = discovery.result.discoveryCuration;
  const fullDiscovery = {
    reports: discovery.reports,
    collectorResult: { ...discovery.result, discoveryCuration: undefined },
  };
  const common = { goal: state.goal, constraints: state.constraints, contributions: [] };
  let curated = 0;
  let full = 0;
  for (const assignment of planning.delegation.assignments) {
    const props = { ...common, assignment, ticketPrefix: 'P1-T' };
    curated += (
      await renderMessages(PlanningAgentPrompt, { ...props, discovery: discoveryForPlanning(curatedDiscovery) }, model)
    ).tokenCount;
    full += (await renderMessages(PlanningAgentPrompt, { ...props, discovery: JSON.stringify(fullDiscovery) }, model))
      .tokenCount;
  }
  const fullPlanning = {
    planningAgentResults: planning.agentResults,
    collectorResult: { ...planning.result, planningCuration: undefined },
  };
  for (const ticket of planning.result.finalizedTickets) {
    const props = { ...common, agentId: 'ticket-x', ticket, reporting: true };
    curated += (
      await renderMessages(
        TicketAgentPrompt,
        { ...props, upstream: ticketUpstream(ticket, curatedDiscovery, planning.result.planningCuration) },
        model,
      )
    ).tokenCount;
    full += (
      await renderMessages(
        TicketAgentPrompt,
        { ...props, upstream: JSON.stringify({ discovery: fullDiscovery, planning: fullPlanning }) },
        model,
      )
    ).tokenCount;
  }
  return { curated, full };
}

/** Workspace size at which the schema figure is taken: under the enum cap (150), where lists are spelled out. */
const SCHEMA_BENCH_FILES = 144;

/**
 * Tokens of one discovery report's tool schema in a 144-file workspace: as sent (the file list spelled out once),
 * and as it was when every file field repeated the list.
 */
async function reportSchemaTokens(model: ScriptedModel): Promise<{ sent: number; repeated: number }> {
  const files = new Set(
    Array.from({ length: SCHEMA_BENCH_FILES }, (_, i) => `src/feature${i % 12}/module${Math.floor(i / 12)}.ts`),
  );
  const { schema } = discoveryReportRequest(files);
  const { $schema: _dialect, ...repeated } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return {
    sent: await model.countTokens(JSON.stringify(jsonSchemaOf(schema))),
    repeated: await model.countTokens(JSON.stringify(repeated)),
  };
}

/**
 * Every Council frame on the stack at the model's first request, outermost first: named functions and closures alike
 * (a closure is named by its file and line), so a layer of indirection counts whether or not it has a name. Counted
 * from runDeepWork, as the /plan handler calls it: the handler itself needs VS Code, and adds two frames above it
 * (its own closure and runDeepWorkTurn; runDeepWork and runWorkflow hand on the engine's promise and leave no frame).
 */
function recordCallPath(model: ScriptedModel): () => string[] {
  let path: string[] = [];
  const send = model.sendRequest.bind(model);
  model.sendRequest = (...args: Parameters<typeof send>) => {
    if (path.length === 0) {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 200;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      path = stack
        .split('\n')
        .flatMap(line => {
          const frame = /^\s*at (?:async )?(?:(.+?) \()?(\S+?):(\d+):\d+\)?$/.exec(line);
          if (!frame || !/[\\/]src[\\/]/.test(frame[2] ?? '')) return [];
          const [, name, file = '', row] = frame;
          return [name && name !== '<anonymous>' ? name : `<closure ${file.replace(/^.*[\\/]src[\\/]/, '')}:${row}>`];
        })
        .reverse();
    }
    return send(...args);
  };
  return () => path;
}

/** The run's handoff findings counted by layer, every layer named (a layer with none says 0). */
function findingsByLayer(state: WorkflowRunState): string {
  const codes = Object.values(state.phaseTallies).flatMap(tally => tally.audit?.findings ?? []);
  return HANDOFF_LAYERS.map(layer => `${layer} ${codes.filter(f => layerOf(f.code) === layer).length}`).join(', ');
}

/** Figures of one bench run. */
export interface PipelineBenchResult {
  /** Model time (real ÷ the time scale), the median of the timed runs. */
  readonly wallMs: number;
  /** Calls on the heaviest chain of calls that ran one after another. */
  readonly criticalPathCalls: number;
  /** That chain's nominal model time: no scheduling could have finished sooner. */
  readonly criticalPathMs: number;
  readonly ratio: number;
  /** Where Council's own time on the critical path went (real ms). */
  readonly ownTime: string;
  readonly calls: number;
  readonly promptTokens: number;
  /** What the run's governor billed: messages and tool schemas in, replies out. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Estimated credits at the three price points. */
  readonly credits: string;
  /** The forecast shown before each stage (expected and at most), summed, against what the run spent. */
  readonly forecast: ForecastFigures;
  readonly downstreamCuratedTokens: number;
  readonly downstreamFullTokens: number;
  readonly reductionPercent: number;
  /**
   * Council frames (named functions and closures) on the stack from runDeepWork to the model, at the first request
   * (the /plan handler adds two: its closure and runDeepWorkTurn).
   */
  readonly callDepth: number;
  /** A discovery report's tool schema in a 144-file workspace, in tokens: as sent, and with the file list at every field. */
  readonly reportSchemaTokens: number;
  readonly reportSchemaTokensRepeated: number;
  /**
   * The same run again with episodic memory of the first (as the VS Code layer contributes it from the run store):
   * its requests, and the prompt tokens the memory added to the planning and ticket agents' prompts.
   */
  readonly withMemory?: { readonly calls: number; readonly inputTokens: number; readonly memoryPromptTokens: number };
  /** What the handoff checks found over the run, by spec 003 §6 layer (e.g. `schema 0, semantic 2, …`). */
  readonly findingsByLayer: string;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Runs the bench and prints the figures; returns them for a combined bench. A first, untimed run loads the modules
 * (tsx compiles each on first use, tens of milliseconds the extension's bundle pays once at activation instead) and is
 * then remembered by a second, untimed run: the prompt tokens episodic memory adds. Then BENCH_RUNS timed runs under
 * the latency model (timings are their medians; the run's requests and tokens do not vary).
 */
export async function main(): Promise<PipelineBenchResult> {
  const first = await benchRun();
  // The workspace's run store after the first run: the second run's episodic memory.
  const store = new RunStore(MemoryMemento.of({}));
  // Every bench run counts ids from 1: the earlier run is stored under another id, or it would read as this one.
  await store.save({ ...first.state, runId: 'wf-00000000-0000-4000-8000-00000000e001' }, 'completed');
  const remembered = await benchRun({ memory: store });
  // The timed runs' forecasts learn from the two before them, as the chat's learn from the workspace's run store.
  const history = forecastHistory('plan', [remembered.state, first.state]);
  const timed: BenchRun[] = [];
  for (let i = 0; i < benchRunsFromEnv(); i++) timed.push(await benchRun({ timed: true, history }));
  const last = timed.at(-1) ?? first;
  const timing = [...timed].sort((a, b) => a.timing!.ratio - b.timing!.ratio)[Math.floor(timed.length / 2)]!.timing!;
  const result: PipelineBenchResult = {
    ...last.result,
    wallMs: median(timed.map(run => run.timing!.wallMs)),
    criticalPathCalls: timing.chainCalls,
    criticalPathMs: median(timed.map(run => run.timing!.boundMs)),
    ratio: timing.ratio,
    ownTime: ownTimeText(timing),
  };
  const withMemory = {
    calls: remembered.result.calls,
    inputTokens: remembered.result.inputTokens,
    memoryPromptTokens: remembered.result.promptTokens - result.promptTokens,
  };
  print(result, timed.length, last.callPath);
  console.log(
    '  episodic memory      +%d prompt tokens with one earlier run remembered (%d requests, %d billed in)',
    withMemory.memoryPromptTokens,
    withMemory.calls,
    withMemory.inputTokens,
  );
  return { ...result, withMemory };
}

interface BenchRun {
  readonly result: PipelineBenchResult;
  readonly state: WorkflowRunState;
  readonly callPath: readonly string[];
  /** Under the latency model only. */
  readonly timing?: RunTiming;
}

async function benchRun(
  options: { readonly timed?: boolean; readonly memory?: EpisodicMemory; readonly history?: ForecastHistory } = {},
): Promise<BenchRun> {
  const files = benchFiles();
  const scripted = pipelineModel({ discovery_report: citingReport(files) });
  const model = options.timed
    ? new LatencyModel(
        scripted,
        PROFILE,
        scriptedReplies(text => scripted.countTokens(text)),
      )
    : scripted;
  const callPath = recordCallPath(scripted);
  const clock = steppingClock();
  const ids = counterIds();
  const runId = newRunId(ids);
  // Parsed once, as the chat has it parsed: parsing it again at each checkpoint was the bench's own time on the chain.
  const workflow = builtInWorkflow('plan');
  // What each stage was forecast to make, taken where the chat shows it: at the start and at each checkpoint.
  const forecast = new ForecastTally(workflow, model, options.history);
  forecast.shown();
  // `/plan` as users run it: the built-in plan workflow through the workflow engine; every checkpoint pauses the run
  // and Continue resumes it.
  const request = {
    workflow,
    model,
    reader: new InMemoryWorkspaceReader(files),
    runId,
    outputs: new InMemoryRunOutputs(`.council/runs/${runId}`),
    clock,
    ids,
    token: neverCancelled,
    spending: { limits: {}, prices: new PriceBook() },
    ...(options.memory
      ? { contributors: defaultContributors().register(episodicMemoryContributor(options.memory)) }
      : {}),
  };
  const started = performance.now();
  let outcome = await runDeepWork({ ...request, start: { goal: 'Add subtraction to the calculator.' } });
  while (outcome.status === 'paused') {
    forecast.shown(outcome.state);
    const decision = optionFor(outcome.checkpoint, { action: 'continue' });
    if (!decision) break;
    outcome = await runDeepWork({ ...request, resume: { state: outcome.state, decision } });
  }
  const finished = performance.now();
  if (outcome.status !== 'completed') throw new Error(`bench run ended ${outcome.status}`);
  const timing = model instanceof LatencyModel ? runTiming(model.calls, started, finished, PROFILE) : undefined;
  const spent = runSpent(outcome.state);
  const { curated, full } = await downstreamTokens(readBoard(outcome.state.blackboard), scripted);
  const reportSchema = await reportSchemaTokens(scripted);
  const result: PipelineBenchResult = {
    wallMs: timing?.wallMs ?? finished - started,
    criticalPathCalls: timing?.chainCalls ?? 0,
    criticalPathMs: timing?.boundMs ?? 0,
    ratio: timing?.ratio ?? 0,
    ownTime: timing ? ownTimeText(timing) : '',
    calls: spent.requests,
    // The messages' tokens, counted here after the run (the run itself tokenizes each request once, in its governor).
    promptTokens: await messageTokens(scripted),
    inputTokens: spent.inputTokens,
    outputTokens: spent.outputTokens,
    credits: creditsAtPricePoints(spent.inputTokens, spent.outputTokens),
    forecast: forecast.against(outcome.state),
    downstreamCuratedTokens: curated,
    downstreamFullTokens: full,
    reductionPercent: full === 0 ? 0 : (100 * (full - curated)) / full,
    callDepth: callPath().length,
    reportSchemaTokens: reportSchema.sent,
    reportSchemaTokensRepeated: reportSchema.repeated,
    findingsByLayer: findingsByLayer(outcome.state),
  };
  return { result, state: outcome.state, callPath: callPath(), ...(timing ? { timing } : {}) };
}

function print(result: PipelineBenchResult, runs: number, callPath: readonly string[]): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    'pipeline bench: /plan (the built-in plan workflow, every checkpoint continued), concurrency 3; TTFT %d ms, %d tokens/s, time scale %s, %d timed runs (medians, model time) after two untimed ones, the second with episodic memory of the first',
    PROFILE.ttftMs,
    PROFILE.tokensPerSecond,
    PROFILE.scale,
    runs,
  );
  console.log('  wall time            %s', s(result.wallMs));
  console.log('  critical-path bound  %s (%d calls)', s(result.criticalPathMs), result.criticalPathCalls);
  console.log('  wall / bound         %sx (aim <= 1.05)', result.ratio.toFixed(2));
  console.log('  where the rest went  %s', result.ownTime);
  console.log('  model requests       %d', result.calls);
  console.log('  prompt tokens        %d', result.promptTokens);
  console.log('  handoff findings     %s', result.findingsByLayer);
  console.log('  billed tokens        %d in (tool schemas included), %d out', result.inputTokens, result.outputTokens);
  console.log('  %s  %s', PRICE_POINTS_LABEL, result.credits);
  console.log('  forecast             %s', forecastLine(result.forecast));
  console.log(
    '  downstream prompts   curated %d tokens vs full results %d tokens: %s%% less',
    result.downstreamCuratedTokens,
    result.downstreamFullTokens,
    result.reductionPercent.toFixed(1),
  );
  console.log(
    '  report tool schema   %d tokens in a %d-file workspace (%d with the file list at every file field)',
    result.reportSchemaTokens,
    SCHEMA_BENCH_FILES,
    result.reportSchemaTokensRepeated,
  );
  console.log(
    '  calls to the model   %d frames from runDeepWork, closures included (the /plan handler adds 2): %s',
    result.callDepth,
    callPath.join(' > '),
  );
}

// Run directly (not when imported by a combined bench).
if (process.argv[1]?.endsWith('pipeline.bench.ts')) {
  main().catch(error => {
    console.error(error);
    process.exitCode = 1;
  });
}
