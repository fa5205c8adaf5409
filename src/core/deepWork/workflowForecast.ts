import type { RequestSpan, SmallestWork, TokensPerRequest } from '../llm/spending/forecastCost';
import { forecastText } from '../llm/spending/forecastText';
import { MAX_REPAIRS_PER_REPLY } from '../llm/repairBudget';
import { creditsFor, type ModelPrice } from '../llm/spending/prices';
import {
  phaseAgentTypes,
  PIPELINE_BOARD_KEY,
  readBoard,
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
import { runSpent, type WorkflowRunState } from '../workflow/engine/workflowRunState';
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
 * What a deep-work request probably takes before the run has measured its own: a prompt of the goal, an area and a
 * few file excerpts with its tool schema, and a short structured reply (the bench's /plan averages ~1.5k in and
 * ~260 out a request). Replaced by the run's own average once it has spent.
 */
export const DEEP_WORK_USUAL_TOKENS_PER_REQUEST: TokensPerRequest = { input: 1_500, output: 300 };

/** A later request may carry more than the run's mean so far (more to consolidate): the bound allows half again. */
const LATER_REQUEST_GROWTH = 1.5;

/** Tokens per request a forecast counts with: probably, and at most. */
export interface ForecastTokens {
  readonly expected: TokensPerRequest;
  readonly most: TokensPerRequest;
}

/**
 * Tokens per request for the rest of a run: its own average so far (the bound at least half again), or the usual
 * figures before it has spent anything.
 */
export function forecastTokens(state?: Pick<WorkflowRunState, 'spending'>): ForecastTokens {
  const spent = state ? runSpent(state) : undefined;
  if (!spent || spent.requests === 0)
    return { expected: DEEP_WORK_USUAL_TOKENS_PER_REQUEST, most: DEEP_WORK_TOKENS_PER_REQUEST };
  const expected = {
    input: Math.round(spent.inputTokens / spent.requests),
    output: Math.round(spent.outputTokens / spent.requests),
  };
  return {
    expected,
    most: {
      input: Math.max(DEEP_WORK_TOKENS_PER_REQUEST.input, Math.round(expected.input * LATER_REQUEST_GROWTH)),
      output: Math.max(DEEP_WORK_TOKENS_PER_REQUEST.output, Math.round(expected.output * LATER_REQUEST_GROWTH)),
    },
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
  const expected =
    [...each, ...skills].reduce((sum, f) => sum + (f?.expected ?? 0), 0) +
    usualAdded +
    scriptTexts.reduce((sum, script) => sum + namedCalls(script), 0) +
    (phase.gapCheck?.kind === 'script' ? namedCalls(phase.gapCheck.script) : 0);
  const open = each.flatMap(f => f?.pending ?? []);
  const counted = types.length > 0 && adaptive === undefined && each.every(f => f?.agents !== undefined);
  const known = counted ? each.reduce((sum, f) => sum + (f?.agents ?? 0), 0) : undefined;
  return {
    phase: phase.id,
    ...(known === undefined ? {} : { agents: known }),
    requests,
    expected,
    ...(scripts > 0 ? { scriptRequests: scripts * scriptCalls } : {}),
    open,
  };
}

/** What the forecast reads of a run: where it goes next, which phases it skips, and the agents' board. */
type RunSoFar = Pick<WorkflowRunState, 'nextPhase' | 'blackboard'> & {
  readonly context: Pick<WorkflowRunState['context'], 'skip_phases'>;
};

/**
 * The phases of `workflow` still to run after `state` (all of them for a new run), skipping the skipped ones; a
 * script counts as up to `scriptCalls` requests (the `council.budget.scriptMaxModelCalls` cap); `model` says whether
 * agents can explore (a model without tool calling writes each report at once).
 */
export function forecastWorkflow(
  workflow: WorkflowDefinition,
  state?: RunSoFar,
  scriptCalls = DEFAULT_SCRIPT_SPEND_LIMITS.maxModelCalls,
  model: ForecastModel = { supportsToolCalling: true },
): PhaseForecast[] {
  const next = state ? state.nextPhase : (workflow.phases[0]?.id ?? null);
  const start = next === null ? workflow.phases.length : workflow.phases.findIndex(phase => phase.id === next);
  const skipped = state?.context.skip_phases ?? [];
  const board = state && PIPELINE_BOARD_KEY in state.blackboard ? readBoard(state.blackboard) : undefined;
  return workflow.phases
    .slice(Math.max(0, start))
    .filter(phase => !skipped.includes(phase.id))
    .map(phase => phaseForecast(phase, board, scriptCalls, model));
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
        expected: { requests: Math.max(fewest, forecast.expected), each: DEEP_WORK_USUAL_TOKENS_PER_REQUEST },
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
 * checkpoint), priced at the run's model (`price` undefined: unknown), tokens per request as `tokens` says (the run's
 * own average once it has spent: see forecastTokens), e.g. "Still to run: discovery about 10, at most 54; planning
 * …: about 24 requests and 43k tokens (≈ 2.1 credits); at most 68 requests and 476k tokens (≈ 22 credits), …".
 */
export function workflowForecastSentence(
  forecast: readonly PhaseForecast[],
  price: ModelPrice | undefined,
  tokens: ForecastTokens = forecastTokens(),
): string {
  if (forecast.length === 0) return 'No phase is left to run.';
  const expected = forecast.reduce((sum, f) => sum + f.expected, 0);
  const most = forecast.reduce((sum, f) => sum + f.requests.most, 0);
  const figure = (requests: number, each: TokensPerRequest) => ({
    requests,
    tokens: Math.round(requests * (each.input + each.output)),
    credits: price === undefined ? undefined : creditsFor(price, requests * each.input, requests * each.output),
  });
  const open = forecast.filter(f => f.open.length).map(f => f.phase);
  const notCounted = open.length ? ` (${open.join(' and ')} not in the most until the stage before it has run)` : '';
  return `Still to run: ${forecast.map(phaseText).join('; ')}: ${forecastText(figure(expected, tokens.expected), figure(most, tokens.most))}${notCounted}. If the model answers in the wrong format, each agent reply may take up to ${MAX_REPAIRS_PER_REPLY} repair requests more, within the run's limit.`;
}
