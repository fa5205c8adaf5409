import { forecastCost, type RequestSpan, type SmallestWork, type TokensPerRequest } from '../llm/spending/forecastCost';
import { MAX_REPAIRS_PER_REPLY } from '../llm/repairBudget';
import type { ModelPrice } from '../llm/spending/prices';
import {
  phaseAgentTypes,
  PIPELINE_BOARD_KEY,
  readBoard,
  stageOfPhase,
  type PipelineBoard,
} from '../plan/pipelineBoard';
import { spanText, stageForecast, type StageForecast } from '../plan/pipelineStageTypes';
import { MARKDOWN_ROLES } from '../workflow/agents/markdownAgents';
import type { PhaseDefinition, WorkflowDefinition } from '../workflow/definition/workflowDefinition';
import type { PhaseFloor } from '../workflow/engine/runWorkflow';
import type { WorkflowRunState } from '../workflow/engine/workflowRunState';
import { DEFAULT_SCRIPT_SPEND_LIMITS } from '../workflow/engine/scriptSpending';

/*
 * What the rest of a deep-work run (`/plan`, `/workflow`, the tools) will cost in model requests, tokens and AI
 * credits, phase by phase, from what each agent type says one of its agents takes: a Markdown agent its exploration
 * rounds and report, a pipeline stage its agents and collector (known once the stage before it has run). Scripts,
 * gap-check retries, reruns, route-backs and repairs of malformed replies come on top, and the sentence says so.
 */

/**
 * Tokens one deep-work request takes at most in the usual case: an agent's prompt is bounded by its context budget
 * (the bench's workspace averages ~900 input tokens a request; a real workspace's file excerpts take more), and a
 * structured reply stays short. Used only to turn request counts into tokens and credits for a forecast.
 */
export const DEEP_WORK_TOKENS_PER_REQUEST: TokensPerRequest = { input: 6_000, output: 1_000 };

/** What agents of `type` take in one phase, as far as the run's board tells (undefined: a type not known here). */
export function agentForecast(type: string, board: PipelineBoard | undefined): StageForecast | undefined {
  const role = MARKDOWN_ROLES.find(candidate => candidate.type === type);
  // An exploring agent may stop exploring at once; then it writes its report.
  if (role) return { agents: 1, requests: { fewest: role.exploreRounds > 0 ? 2 : 1, most: role.exploreRounds + 1 } };
  return stageForecast(type, board);
}

/** One phase still to run: what can be counted ahead, and what comes on top, in words. */
export interface PhaseForecast {
  readonly phase: string;
  /** Its agents, when all are known. */
  readonly agents?: number;
  readonly requests: RequestSpan;
  /** Of `requests.most`, what its scripts may ask (`thinkHard`) within their cap; absent without a script. */
  readonly scriptRequests?: number;
  /** What it decides during the run, e.g. "gap-check retries", "one agent per ticket planning makes (…)". */
  readonly open: readonly string[];
}

function add(a: RequestSpan, b: RequestSpan): RequestSpan {
  return { fewest: a.fewest + b.fewest, most: a.most + b.most };
}

function phaseForecast(
  phase: PhaseDefinition,
  board: PipelineBoard | undefined,
  scriptCalls = DEFAULT_SCRIPT_SPEND_LIMITS.maxModelCalls,
): PhaseForecast {
  const { agents } = phase;
  const types = phaseAgentTypes(phase);
  const each = types.map(type => agentForecast(type, board));
  const skills = phase.skills.flatMap(skill => agentForecast(skill.name, board)?.requests ?? []);
  const adds = agents.mode === 'adaptive' && agents.adaptiveScript !== undefined;
  // A script may call `thinkHard` none or up to its cap: the bound counts the cap, not "and more".
  const scripts = (agents.behavior === 'main-only' ? 1 : 0) + (phase.mainScript !== undefined ? 1 : 0) + (adds ? 1 : 0);
  const scripted = Array.from({ length: scripts }, () => ({ fewest: 0, most: scriptCalls }));
  const requests = [...each.flatMap(f => f?.requests ?? []), ...skills, ...scripted].reduce(add, {
    fewest: 0,
    most: 0,
  });
  const open = each.flatMap(f => f?.pending ?? []);
  if (adds) open.push('the agents its script adds');
  if (phase.gapCheck !== undefined) open.push('gap-check retries');
  const counted = types.length > 0 && !adds && each.every(f => f?.agents !== undefined);
  const known = counted ? each.reduce((sum, f) => sum + (f?.agents ?? 0), 0) : undefined;
  return {
    phase: phase.id,
    ...(known === undefined ? {} : { agents: known }),
    requests,
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
 * script counts as up to `scriptCalls` requests (the `council.budget.scriptMaxModelCalls` cap).
 */
export function forecastWorkflow(
  workflow: WorkflowDefinition,
  state?: RunSoFar,
  scriptCalls = DEFAULT_SCRIPT_SPEND_LIMITS.maxModelCalls,
): PhaseForecast[] {
  const next = state ? state.nextPhase : (workflow.phases[0]?.id ?? null);
  const start = next === null ? workflow.phases.length : workflow.phases.findIndex(phase => phase.id === next);
  const skipped = state?.context.skip_phases ?? [];
  const board = state && PIPELINE_BOARD_KEY in state.blackboard ? readBoard(state.blackboard) : undefined;
  return workflow.phases
    .slice(Math.max(0, start))
    .filter(phase => !skipped.includes(phase.id))
    .map(phase => phaseForecast(phase, board, scriptCalls));
}

/**
 * What the least of each phase of `workflow` costs, for the engine's check before every phase starts: the fewest
 * requests its agents and skills make that can be counted ahead (none: not checked), named as the chat names it
 * ("the discovery stage" for a /plan stage, "the `review` phase" otherwise).
 */
export function phaseFloorOf(workflow: WorkflowDefinition): PhaseFloor {
  return {
    each: DEEP_WORK_TOKENS_PER_REQUEST,
    smallest: (phase): SmallestWork | undefined => {
      const fewest = phaseForecast(phase, undefined).requests.fewest;
      if (fewest <= 0) return undefined;
      const stage = stageOfPhase(workflow, phase.id);
      return { what: stage ? `the ${stage} stage` : `the \`${phase.id}\` phase`, fewestRequests: fewest };
    },
  };
}

/**
 * One sentence on the cost of the phases still to run (before a run or a resumed run spends anything, and at each
 * checkpoint), priced at the run's model (`price` undefined: unknown), e.g. "Still to run: discovery 3–16; planning
 * 2–4; tickets one agent per ticket planning makes (2–3 requests each, plus 1): 5–20 and more model requests, …".
 */
export function workflowForecastSentence(forecast: readonly PhaseForecast[], price: ModelPrice | undefined): string {
  if (forecast.length === 0) return 'No phase is left to run.';
  const parts = forecast.map(f => {
    const agents = f.agents === undefined || f.agents === 0 ? '' : ` (${f.agents} agent${f.agents === 1 ? '' : 's'})`;
    const script = f.scriptRequests ? ` (up to ${f.scriptRequests} of them its script's \`thinkHard\`, its cap)` : '';
    const counted = f.requests.most > 0 || f.open.length === 0 ? ` ${spanText(f.requests)}${script}` : '';
    const more = f.open.length ? `${counted ? ' plus' : ''} ${f.open.join(' and ')}` : '';
    return `${f.phase}${agents}${counted}${more}`;
  });
  const total = forecast.reduce((sum, f) => add(sum, f.requests), { fewest: 0, most: 0 });
  const open = forecast.some(f => f.open.length) ? ' and more' : '';
  const cost = forecastCost(total, DEEP_WORK_TOKENS_PER_REQUEST, price);
  return `Still to run: ${parts.join('; ')}: ${spanText(total)}${open} model request${total.most === 1 && !open ? '' : 's'}, ${cost}${open}. If the model answers in the wrong format, each agent reply may take up to ${MAX_REPAIRS_PER_REPLY} repair requests more, within the run's limit.`;
}
