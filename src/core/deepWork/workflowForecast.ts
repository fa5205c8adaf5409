import type { RequestSpan, SmallestWork, TokensPerRequest } from '../llm/spending/forecastCost';
import { forecastText, type ForecastFigure } from '../llm/spending/forecastText';
import { MAX_REPAIRS_PER_REPLY } from '../llm/repairBudget';
import { creditsFor, type ModelPrice } from '../llm/spending/prices';
import {
  phaseAgentTypes,
  PIPELINE_BOARD_KEY,
  readBoard,
  STAGE_TYPES,
  stageOfPhase,
  type PipelineBoard,
} from '../plan/pipelineBoard';
import { stageForecast, type StageForecast } from '../plan/pipelineStageTypes';
import { MARKDOWN_ROLES } from '../workflow/agents/markdownAgents';
import type {
  GapCheckDefinition,
  PhaseDefinition,
  WorkflowDefinition,
} from '../workflow/definition/workflowDefinition';
import { DEFAULT_WORKFLOW_LIMITS, type PhaseFloor } from '../workflow/engine/runWorkflow';
import { phaseRequests, phaseStep, runSpent, type WorkflowRunState } from '../workflow/engine/workflowRunState';
import { REPETITION_BOUNDS } from '../workflow/engine/repetitionBounds';
import { NO_HISTORY, type ForecastHistory, type PhaseMeasure } from './forecastHistory';
import { DEFAULT_SCRIPT_SPEND_LIMITS } from '../workflow/engine/scriptSpending';

/*
 * What the rest of a deep-work run (`/plan`, `/workflow`, the tools) will cost, phase by phase: what it will probably
 * take (each agent's usual requests, one collector round, the `thinkHard` calls its scripts name) and the most it can
 * (every exploration round, collector round and loop recovery a stage allows, gap-check retries, script caps). Known
 * from the workflow, the model (one without tool calling does not explore) and what the run has made so far.
 */

/**
 * Tokens one deep-work request takes at most in the usual case: an agent's prompt is bounded by its context budget
 * and a structured reply stays short. The bound's figure per request (never below what the run has measured).
 */
export const DEEP_WORK_TOKENS_PER_REQUEST: TokensPerRequest = { input: 6_000, output: 1_000 };

/**
 * What a deep-work request of an unknown kind probably takes before any run in the workspace has measured it: a
 * prompt of the goal, an area and a few file excerpts, and a short reply.
 */
export const DEEP_WORK_USUAL_TOKENS_PER_REQUEST: TokensPerRequest = { input: 1_500, output: 300 };

/**
 * What one request of each kind probably takes before a run in the workspace has measured it (priors, taken from a
 * first run on a small workspace, the bench's 23 files: a /plan discovery request ~1.6k in and ~410 out, its tool
 * schema included; planning ~1.8k and ~190; a ticket ~1k and ~60; a Markdown report ~800 and ~290). Replaced by
 * what earlier runs of the workflow measured (forecastHistory.ts) and scaled by what this run has measured so far.
 */
const USUAL_TOKENS_BY_TYPE: Readonly<Record<string, TokensPerRequest>> = {
  [STAGE_TYPES.discovery]: { input: 1_500, output: 400 },
  [STAGE_TYPES.planning]: { input: 1_700, output: 200 },
  [STAGE_TYPES.tickets]: { input: 900, output: 100 },
};
/** A Markdown role's request: its task, the goal and the files before it; a report of a few hundred tokens. */
const USUAL_MARKDOWN_TOKENS: TokensPerRequest = { input: 700, output: 300 };
/** A script's `thinkHard`: usually a summary of what the phases wrote, so a longer prompt. */
const USUAL_SCRIPT_TOKENS: TokensPerRequest = { input: 1_500, output: 300 };

function usualTokens(type: string): TokensPerRequest {
  if (MARKDOWN_ROLES.some(role => role.type === type)) return USUAL_MARKDOWN_TOKENS;
  return USUAL_TOKENS_BY_TYPE[type] ?? DEEP_WORK_USUAL_TOKENS_PER_REQUEST;
}

/** A later request may carry more than the run's mean so far (more to consolidate): the bound allows half again. */
const LATER_REQUEST_GROWTH = 1.5;

/** Tokens per request the bound counts with: the usual most, or half again the run's own mean once it has spent. */
export function mostTokensPerRequest(state?: Pick<WorkflowRunState, 'spending'>): TokensPerRequest {
  const spent = state ? runSpent(state) : undefined;
  if (!spent || spent.requests === 0) return DEEP_WORK_TOKENS_PER_REQUEST;
  return {
    input: Math.max(
      DEEP_WORK_TOKENS_PER_REQUEST.input,
      Math.round((spent.inputTokens / spent.requests) * LATER_REQUEST_GROWTH),
    ),
    output: Math.max(
      DEEP_WORK_TOKENS_PER_REQUEST.output,
      Math.round((spent.outputTokens / spent.requests) * LATER_REQUEST_GROWTH),
    ),
  };
}

/** What the forecast knows of the model: one without tool calling writes its report without exploring. */
export interface ForecastModel {
  readonly supportsToolCalling: boolean;
}

/** What agents of `type` take in one phase, as far as the run's board tells (undefined: a type not known here). */
export function agentForecast(
  type: string,
  board: PipelineBoard | undefined,
  model: ForecastModel = { supportsToolCalling: true },
): StageForecast | undefined {
  const role = MARKDOWN_ROLES.find(candidate => candidate.type === type);
  if (role) {
    // An exploring agent may stop exploring at once; then it writes its report. Usually it reads once, then says it
    // knows enough.
    const explores = role.exploreRounds > 0 && model.supportsToolCalling;
    const requests = explores ? { fewest: 2, most: role.exploreRounds + 1 } : { fewest: 1, most: 1 };
    return { agents: 1, requests, expected: Math.min(requests.most, 3) };
  }
  return stageForecast(type, board);
}

/** The most one agent a script adds (or a gap check spawns) may take: the dearest Markdown role's. */
function dearestAgent(model: ForecastModel): number {
  return Math.max(...MARKDOWN_ROLES.map(role => agentForecast(role.type, undefined, model)?.requests?.most ?? 1));
}

/** One phase still to run: what it will probably take, the most it can, and what is not known yet, in words. */
export interface PhaseForecast {
  readonly phase: string;
  /** Its agents, when all are known. */
  readonly agents?: number;
  /** Fewest and most requests (the most counts reruns, collector rounds, gap-check retries and script caps). */
  readonly requests: RequestSpan;
  /** What it will probably make. */
  readonly expected: number;
  /** Tokens one of its requests probably takes (earlier runs' measure, or the priors of its kinds of agent). */
  readonly each: TokensPerRequest;
  /**
   * What one route-back from this phase may add to the run (the phases from the earliest it may return to through
   * this one, run again); absent when it cannot route back or the run has used its route-back. Not in
   * `requests.most`: a run routes back at most `REPETITION_BOUNDS.routeBacks` times, so the run's bound counts the
   * dearest one (see forecastFigures).
   */
  readonly routeBack?: number;
  /** Of `requests.most`, what its scripts may ask (`thinkHard`) within their cap; absent without a script. */
  readonly scriptRequests?: number;
  /** What it decides during the run and is not in `requests.most`, e.g. "one agent per ticket planning makes (…)". */
  readonly open: readonly string[];
}

function add(a: RequestSpan, b: RequestSpan): RequestSpan {
  return { fewest: a.fewest + b.fewest, most: a.most + b.most };
}

/** The `thinkHard` calls a script names: what it probably asks (a call in a loop may ask more, within its cap). */
function namedCalls(script: string | undefined): number {
  return script === undefined ? 0 : (script.match(/\bthinkHard\s*\(/g) ?? []).length;
}

/** Agents an adaptive script names (`type: …`): what it probably adds. */
function namedAgents(script: string): number {
  return (script.match(/\btype\s*:/g) ?? []).length;
}

/** What a gap check may add after the first pass: each retry runs the phase's agents (or adds agents) again. */
function gapCheckMost(
  gapCheck: GapCheckDefinition,
  agentsMost: number,
  scriptCalls: number,
  model: ForecastModel,
): number {
  const retries = gapCheck.maxIterations - 1;
  const added = DEFAULT_WORKFLOW_LIMITS.maxSubagentsPerPhase * dearestAgent(model);
  if (gapCheck.kind === 'script') return gapCheck.maxIterations * scriptCalls + retries * Math.max(agentsMost, added);
  const { action, additionalAgents } = gapCheck.onFailure;
  if (action === 'retry') return retries * agentsMost;
  if (action === 'spawn_additional') return retries * additionalAgents.length * dearestAgent(model);
  return 0;
}

function phaseForecast(
  phase: PhaseDefinition,
  board: PipelineBoard | undefined,
  scriptCalls: number,
  model: ForecastModel,
  measured?: PhaseMeasure,
): PhaseForecast {
  const { agents } = phase;
  const types = phaseAgentTypes(phase);
  const each = types.map(type => agentForecast(type, board, model));
  const skills = phase.skills.flatMap(skill => agentForecast(skill.name, board, model) ?? []);
  const adaptive = agents.mode === 'adaptive' ? agents.adaptiveScript : undefined;
  // A script may call `thinkHard` none or up to its cap: the bound counts the cap, the expected figure the calls it names.
  const scriptTexts = [
    agents.behavior === 'main-only' ? agents.mainScript : undefined,
    phase.mainScript,
    adaptive,
  ].filter((script): script is string => script !== undefined);
  const scripts = scriptTexts.length;
  const scripted = Array.from({ length: scripts }, () => ({ fewest: 0, most: scriptCalls }));
  // An adaptive script adds agents up to the phase's cap, each at most what the dearest agent takes.
  const room = Math.max(0, DEFAULT_WORKFLOW_LIMITS.maxSubagentsPerPhase - types.length);
  const adds = adaptive === undefined ? [] : [{ fewest: 0, most: room * dearestAgent(model) }];
  const agentSpans = [...each, ...skills].flatMap(f => f?.requests ?? []);
  const agentsMost = agentSpans.reduce((sum, span) => sum + span.most, 0);
  const gap = phase.gapCheck ? gapCheckMost(phase.gapCheck, agentsMost, scriptCalls, model) : 0;
  const requests = [...agentSpans, ...adds, ...scripted, { fewest: 0, most: gap }].reduce(add, {
    fewest: 0,
    most: 0,
  });
  const usualAdded =
    adaptive === undefined ? 0 : Math.min(room, namedAgents(adaptive)) * Math.min(3, dearestAgent(model));
  const calls =
    scriptTexts.reduce((sum, script) => sum + namedCalls(script), 0) +
    (phase.gapCheck?.kind === 'script' ? namedCalls(phase.gapCheck.script) : 0);
  // What each kind of request probably takes, weighted by how many of it the phase probably makes.
  const kinds: { readonly requests: number; readonly each: TokensPerRequest }[] = [
    ...types.map((type, i) => ({ requests: each[i]?.expected ?? 0, each: usualTokens(type) })),
    ...phase.skills.map(skill => ({
      requests: agentForecast(skill.name, board, model)?.expected ?? 0,
      each: usualTokens(skill.name),
    })),
    { requests: usualAdded, each: USUAL_MARKDOWN_TOKENS },
    { requests: calls, each: USUAL_SCRIPT_TOKENS },
  ];
  const usual = [...each, ...skills].reduce((sum, f) => sum + (f?.expected ?? 0), 0) + usualAdded + calls;
  const open = each.flatMap(f => f?.pending ?? []);
  const counted = types.length > 0 && adaptive === undefined && each.every(f => f?.agents !== undefined);
  const known = counted ? each.reduce((sum, f) => sum + (f?.agents ?? 0), 0) : undefined;
  // Earlier runs' measure replaces the usual figure, unless the run's board already knows this stage's agents.
  const boardKnows = types.some(type => stageForecast(type, board)?.agents !== undefined);
  const learned = measured && !boardKnows ? Math.round(measured.requestsPerPass) : undefined;
  const expected =
    learned === undefined ? usual : Math.max(requests.fewest, open.length ? learned : Math.min(requests.most, learned));
  return {
    phase: phase.id,
    ...(known === undefined ? {} : { agents: known }),
    requests,
    expected,
    each: measured?.each ?? weighted(kinds),
    ...(scripts > 0 ? { scriptRequests: scripts * scriptCalls } : {}),
    open,
  };
}

/** The mean tokens per request over kinds of request, each weighted by its count (the usual figure without any). */
function weighted(kinds: readonly { readonly requests: number; readonly each: TokensPerRequest }[]): TokensPerRequest {
  const requests = kinds.reduce((n, k) => n + k.requests, 0);
  if (requests === 0) return DEEP_WORK_USUAL_TOKENS_PER_REQUEST;
  const mean = (pick: (each: TokensPerRequest) => number) =>
    Math.round(kinds.reduce((n, k) => n + k.requests * pick(k.each), 0) / requests);
  return { input: mean(each => each.input), output: mean(each => each.output) };
}

/** Whether a phase's agents may send the run back to an earlier phase (the /plan stages' collectors and agents may). */
function mayRouteBack(phase: PhaseDefinition): boolean {
  const stages = Object.values(STAGE_TYPES);
  return phaseAgentTypes(phase).some(type => stages.includes(type));
}

/**
 * What the forecast reads of a run: where it goes next, which phases it skips, the agents' board, and (when known)
 * what it spent and how often it went back.
 */
type RunSoFar = Pick<WorkflowRunState, 'nextPhase' | 'blackboard'> &
  Partial<Pick<WorkflowRunState, 'spending' | 'routeBacks'>> & {
    readonly context: Pick<WorkflowRunState['context'], 'skip_phases'>;
  };

/** This run's tokens over what the forecast would have said for the phases it has run: how far its requests differ. */
function measuredScale(all: readonly PhaseForecast[], spending: WorkflowRunState['spending']): number {
  let forecast = 0;
  let spent = 0;
  for (const f of all) {
    const requests = phaseRequests({ spending }, f.phase);
    if (requests === 0) continue;
    forecast += requests * (f.each.input + f.each.output);
    const lines = spending.filter(line => line.step === phaseStep(f.phase));
    spent += lines.reduce((n, line) => n + line.inputTokens + line.outputTokens, 0);
  }
  return forecast === 0 ? 1 : Math.min(4, Math.max(0.25, spent / forecast));
}

/**
 * The phases of `workflow` still to run after `state` (all of them for a new run), skipping the skipped ones; a
 * script counts as up to `scriptCalls` requests (the `council.budget.scriptMaxModelCalls` cap); `model` says whether
 * agents can explore (a model without tool calling writes each report at once). The expected figures learn:
 * `history` (what earlier runs of the workflow in this workspace measured, forecastHistory.ts) replaces the priors,
 * and what this run has spent so far scales the tokens of the phases left.
 */
export function forecastWorkflow(
  workflow: WorkflowDefinition,
  state?: RunSoFar,
  scriptCalls = DEFAULT_SCRIPT_SPEND_LIMITS.maxModelCalls,
  model: ForecastModel = { supportsToolCalling: true },
  history: ForecastHistory = NO_HISTORY,
): PhaseForecast[] {
  const next = state ? state.nextPhase : (workflow.phases[0]?.id ?? null);
  const start = next === null ? workflow.phases.length : workflow.phases.findIndex(phase => phase.id === next);
  const skipped = state?.context.skip_phases ?? [];
  const board = state && PIPELINE_BOARD_KEY in state.blackboard ? readBoard(state.blackboard) : undefined;
  const all = workflow.phases.map(phase => phaseForecast(phase, board, scriptCalls, model, history.get(phase.id)));
  const scale = state?.spending ? measuredScale(all, state.spending) : 1;
  // One route-back per run (REPETITION_BOUNDS.routeBacks): from a phase whose agents may ask for it, back to the
  // earliest such phase at most; every phase from there through the one that asked runs again.
  const canGoBack = (state?.routeBacks ?? 0) < REPETITION_BOUNDS.routeBacks;
  const first = workflow.phases.findIndex(mayRouteBack);
  const routeBack = (index: number): number | undefined => {
    if (!canGoBack || first < 0 || index <= first || !mayRouteBack(workflow.phases[index]!)) return undefined;
    return all.slice(first, index + 1).reduce((sum, f) => sum + f.requests.most, 0);
  };
  return all
    .map((f, index) => {
      const back = routeBack(index);
      const each = { input: Math.round(f.each.input * scale), output: Math.round(f.each.output * scale) };
      return { ...f, each, ...(back === undefined ? {} : { routeBack: back }) };
    })
    .slice(Math.max(0, start))
    .filter(f => !skipped.includes(f.phase));
}

/**
 * The run's two numbers from its phases: what it will probably cost (each phase's expected requests at its tokens per
 * request) and the most it can (every phase's bound, plus the dearest route-back left, at `most` tokens a request),
 * priced at `price` (undefined: unknown).
 */
export function forecastFigures(
  forecast: readonly PhaseForecast[],
  price: ModelPrice | undefined,
  most: TokensPerRequest = DEEP_WORK_TOKENS_PER_REQUEST,
): { readonly expected: ForecastFigure; readonly most: ForecastFigure } {
  const expectedIn = forecast.reduce((n, f) => n + f.expected * f.each.input, 0);
  const expectedOut = forecast.reduce((n, f) => n + f.expected * f.each.output, 0);
  const requests = forecast.reduce((n, f) => n + f.requests.most, 0) + routeBackMost(forecast);
  const credits = (input: number, output: number) =>
    price === undefined ? undefined : creditsFor(price, input, output);
  return {
    expected: {
      requests: forecast.reduce((n, f) => n + f.expected, 0),
      tokens: Math.round(expectedIn + expectedOut),
      credits: credits(expectedIn, expectedOut),
    },
    most: {
      requests,
      tokens: requests * (most.input + most.output),
      credits: credits(requests * most.input, requests * most.output),
    },
  };
}

/** The dearest route-back the phases left may take (0: none may). */
function routeBackMost(forecast: readonly PhaseForecast[]): number {
  return Math.max(0, ...forecast.map(f => f.routeBack ?? 0));
}

/**
 * What the least of each phase of `workflow` costs, for the engine's check before every phase starts: the fewest
 * requests its agents and skills make that can be counted ahead (none: not checked), and what it probably makes,
 * named as the chat names it ("the discovery stage" for a /plan stage, "the `review` phase" otherwise).
 */
export function phaseFloorOf(workflow: WorkflowDefinition): PhaseFloor {
  return {
    each: DEEP_WORK_TOKENS_PER_REQUEST,
    smallest: (phase): SmallestWork | undefined => {
      const forecast = phaseForecast(phase, undefined, DEFAULT_SCRIPT_SPEND_LIMITS.maxModelCalls, {
        supportsToolCalling: true,
      });
      const fewest = forecast.requests.fewest;
      if (fewest <= 0) return undefined;
      const stage = stageOfPhase(workflow, phase.id);
      return {
        what: stage ? `the ${stage} stage` : `the \`${phase.id}\` phase`,
        fewestRequests: fewest,
        expected: { requests: Math.max(fewest, forecast.expected), each: forecast.each },
      };
    },
  };
}

/** A phase's requests in words: "about 10, at most 54", with what its script may ask and what is open. */
function phaseText(f: PhaseForecast): string {
  const agents = f.agents === undefined || f.agents === 0 ? '' : ` (${f.agents} agent${f.agents === 1 ? '' : 's'})`;
  const script = f.scriptRequests ? `, ${f.scriptRequests} of them its script's \`thinkHard\` cap` : '';
  const most = f.requests.most > 0 || f.open.length === 0 ? `, at most ${f.requests.most}${script}` : '';
  const open = f.open.length ? `; ${f.open.join(' and ')}` : '';
  return `${f.phase}${agents} about ${f.expected}${most}${open}`;
}

/**
 * One sentence on the cost of the phases still to run (before a run or a resumed run spends anything, and at each
 * checkpoint), priced at the run's model (`price` undefined: unknown), the bound's tokens per request as `most` says
 * (half again the run's own mean once it has spent: see mostTokensPerRequest), e.g. "Still to run: discovery about
 * 10, at most 59; planning …: about 24 requests and 37k tokens (≈ 2.1 credits); at most 99 requests and 693k tokens
 * (≈ 30 credits), one route-back included, …".
 */
export function workflowForecastSentence(
  forecast: readonly PhaseForecast[],
  price: ModelPrice | undefined,
  most: TokensPerRequest = DEEP_WORK_TOKENS_PER_REQUEST,
): string {
  if (forecast.length === 0) return 'No phase is left to run.';
  const figures = forecastFigures(forecast, price, most);
  const back = routeBackMost(forecast);
  const routeBack = back > 0 ? `, one route-back to an earlier stage included (up to ${back} requests)` : '';
  const open = forecast.filter(f => f.open.length).map(f => f.phase);
  const notCounted = open.length ? ` (${open.join(' and ')} not in the most until the stage before it has run)` : '';
  return `Still to run: ${forecast.map(phaseText).join('; ')}: ${forecastText(figures.expected, figures.most)}${routeBack}${notCounted}. If the model answers in the wrong format, each agent reply may take up to ${MAX_REPAIRS_PER_REPLY} repair requests more, within the run's limit.`;
}
