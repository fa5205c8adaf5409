import { forecastCost, type TokensPerRequest } from '../../llm/spending/forecastCost';
import { MAX_REPAIRS_PER_REPLY } from '../../llm/repairBudget';
import type { ModelPrice } from '../../llm/spending/prices';
import { PIPELINE_STAGES, type PipelineStage } from '../schemas/agentType';
import { DEFAULT_PIPELINE_OPTIONS, type PipelineOptions } from '../stages/pipelineOptions';
import type { PipelineRunState } from './runState';

/*
 * What the rest of a `/plan` run will cost in model requests, tokens and AI credits, from the same bounds the
 * stages run by: per agent, the exploration rounds it may take (at least one) and its report; one collector per
 * stage. A stage's agent count is known once the stage before it is done (discovery's depends on the workspace, so
 * it is a range). Reruns, route-backs and repairs of malformed replies come on top, and the sentence says so.
 */

/**
 * Tokens one deep-work request takes at most in the usual case: an agent's prompt is bounded by its context budget
 * (the bench's workspace averages ~900 input tokens a request; a real workspace's file excerpts take more), and a
 * structured reply stays short. Used only to turn request counts into tokens and credits for a forecast.
 */
export const DEEP_WORK_TOKENS_PER_REQUEST: TokensPerRequest = { input: 6_000, output: 1_000 };

/** Fewest and most requests. */
export interface RequestRange {
  readonly fewest: number;
  readonly most: number;
}

/** One stage still to run. */
export interface StageForecast {
  readonly stage: PipelineStage;
  /** Its agents, when already known. */
  readonly agents?: number;
  /** Its requests; undefined until the stage before it has run (tickets: one agent per ticket planning makes). */
  readonly requests?: RequestRange;
  /** What one of its agents takes. */
  readonly perAgent: RequestRange;
}

/** Requests one agent of `stage` makes: exploration rounds (when the stage explores), then its report. */
function perAgent(stage: PipelineStage, options: PipelineOptions): RequestRange {
  switch (stage) {
    case 'discovery':
      return { fewest: 2, most: options.discoveryExploration.maxRounds + 1 };
    case 'planning':
      return { fewest: 1, most: 1 };
    case 'tickets':
      return { fewest: 2, most: options.ticketExploration.maxRounds + 1 };
  }
}

/** How many agents `stage` will start, as far as `state` tells. */
function agentsOf(
  stage: PipelineStage,
  state: PipelineRunState | undefined,
  options: PipelineOptions,
): RequestRange | undefined {
  switch (stage) {
    case 'discovery':
      return { fewest: 1, most: options.maxAgentsPerStage };
    case 'planning': {
      const recommendations = state?.stages.discovery?.result.recommendations.length;
      if (recommendations === undefined) return { fewest: 1, most: options.maxAgentsPerStage };
      const agents = Math.max(1, Math.min(options.maxAgentsPerStage, recommendations));
      return { fewest: agents, most: agents };
    }
    case 'tickets': {
      const tickets = state?.stages.planning?.result.finalizedTickets.length;
      return tickets === undefined ? undefined : { fewest: tickets, most: tickets };
    }
  }
}

/** The stages still to run after `state` (all three for a new run), with what each will cost. */
export function forecastStages(
  state: PipelineRunState | undefined,
  options: PipelineOptions = DEFAULT_PIPELINE_OPTIONS,
): StageForecast[] {
  const from = state ? state.nextStage : 'discovery';
  if (from === null) return [];
  const stages = PIPELINE_STAGES.slice(PIPELINE_STAGES.indexOf(from)).filter(stage => !state?.skipped.includes(stage));
  return stages.map(stage => {
    const agents = agentsOf(stage, state, options);
    const each = perAgent(stage, options);
    if (!agents) return { stage, perAgent: each };
    const requests = { fewest: agents.fewest * each.fewest + 1, most: agents.most * each.most + 1 };
    return agents.fewest === agents.most
      ? { stage, agents: agents.most, requests, perAgent: each }
      : { stage, requests, perAgent: each };
  });
}

function range(r: RequestRange): string {
  return r.fewest === r.most ? `${r.most}` : `${r.fewest}–${r.most}`;
}

/**
 * One sentence on the cost of the stages still to run, e.g. at the start of a run or at a checkpoint, priced at
 * the run's model (`price` undefined: unknown).
 */
export function forecastSentence(forecasts: readonly StageForecast[], price: ModelPrice | undefined): string {
  if (forecasts.length === 0) return 'No stage is left to run.';
  const parts = forecasts.map(f => {
    if (!f.requests)
      return `${f.stage} one agent per ticket planning makes (${range(f.perAgent)} requests each, plus 1)`;
    const agents = f.agents === undefined ? '' : ` (${f.agents} agent${f.agents === 1 ? '' : 's'})`;
    return `${f.stage}${agents} ${range(f.requests)}`;
  });
  const known = forecasts.filter(f => f.requests).map(f => f.requests as RequestRange);
  const total = known.reduce((sum, r) => ({ fewest: sum.fewest + r.fewest, most: sum.most + r.most }), {
    fewest: 0,
    most: 0,
  });
  const open = forecasts.some(f => !f.requests) ? ' and more' : '';
  const cost = forecastCost(total, DEEP_WORK_TOKENS_PER_REQUEST, price);
  return `Still to run: ${parts.join('; ')}: ${range(total)}${open} model requests, ${cost}${open}. If the model answers in the wrong format, each agent reply may take up to ${MAX_REPAIRS_PER_REPLY} repair requests more, within the run's limit.`;
}
