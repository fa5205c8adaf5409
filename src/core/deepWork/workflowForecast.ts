import { forecastCost, type SmallestWork } from '../llm/spending/forecastCost';
import { MAX_REPAIRS_PER_REPLY } from '../llm/repairBudget';
import type { ModelPrice } from '../llm/spending/prices';
import { DEEP_WORK_TOKENS_PER_REQUEST, forecastStages, type RequestRange } from '../plan/run/requestEstimate';
import { PIPELINE_STAGES } from '../plan/schemas/agentType';
import { MARKDOWN_ROLES } from '../workflow/agents/markdownAgents';
import type { PhaseDefinition, SubagentSpec, WorkflowDefinition } from '../workflow/definition/workflowDefinition';
import { STAGE_TYPES, stageOfPhase } from '../plan/pipelineBoard';
import type { PhaseFloor } from '../workflow/engine/runWorkflow';

/** Requests one agent of `type` makes, when that is known before the run (a ticket stage's depends on planning). */
export function agentRequests(type: string): RequestRange | undefined {
  const role = MARKDOWN_ROLES.find(candidate => candidate.type === type);
  // An exploring agent may stop exploring at once; then it writes its report.
  if (role) return { fewest: role.exploreRounds > 0 ? 2 : 1, most: role.exploreRounds + 1 };
  const stage = PIPELINE_STAGES.find(candidate => STAGE_TYPES[candidate] === type);
  return stage ? forecastStages(undefined).find(forecast => forecast.stage === stage)?.requests : undefined;
}

/** What the phases still to run will cost in model requests, and what comes on top that cannot be counted ahead. */
export interface WorkflowForecast {
  readonly requests: RequestRange;
  /** Phases whose cost depends on something decided during the run (scripts, adaptive agents, a ticket count). */
  readonly open: readonly string[];
}

function add(a: RequestRange, b: RequestRange): RequestRange {
  return { fewest: a.fewest + b.fewest, most: a.most + b.most };
}

function phaseCost(phase: PhaseDefinition): { readonly requests: RequestRange; readonly open: boolean } {
  const { agents } = phase;
  const specs: readonly SubagentSpec[] =
    agents.behavior === 'main-only' ? [] : agents.mode === 'adaptive' ? agents.always : agents.subagents;
  const skills = phase.skills
    .map(skill => agentRequests(skill.name))
    .filter((range): range is RequestRange => range !== undefined);
  const ranges = specs.map(spec => agentRequests(spec.type));
  const known = [...ranges, ...skills].filter((range): range is RequestRange => range !== undefined);
  const requests = known.reduce(add, { fewest: 0, most: 0 });
  const scripted =
    agents.behavior === 'main-only' ||
    phase.mainScript !== undefined ||
    (agents.mode === 'adaptive' && agents.adaptiveScript !== undefined);
  const retried = phase.gapCheck !== undefined;
  return { requests, open: scripted || retried || ranges.some(range => range === undefined) };
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
      const fewest = phaseCost(phase).requests.fewest;
      if (fewest <= 0) return undefined;
      const stage = stageOfPhase(workflow, phase.id);
      return { what: stage ? `the ${stage} stage` : `the \`${phase.id}\` phase`, fewestRequests: fewest };
    },
  };
}

/** The forecast of `workflow` from `next` on (the first phase for a new run), skipping `skipped`. */
export function forecastWorkflow(
  workflow: WorkflowDefinition,
  next: string | null = workflow.phases[0]?.id ?? null,
  skipped: readonly string[] = [],
): WorkflowForecast {
  const start = next === null ? workflow.phases.length : workflow.phases.findIndex(phase => phase.id === next);
  const phases = workflow.phases.slice(Math.max(0, start)).filter(phase => !skipped.includes(phase.id));
  const costs = phases.map(phase => ({ phase, ...phaseCost(phase) }));
  return {
    requests: costs.reduce((sum, cost) => add(sum, cost.requests), { fewest: 0, most: 0 }),
    open: costs.filter(cost => cost.open).map(cost => cost.phase.id),
  };
}

/** One sentence for the chat before a run (or a resumed run) spends anything, priced at the run's model. */
export function workflowForecastSentence(forecast: WorkflowForecast, price: ModelPrice | undefined): string {
  const { fewest, most } = forecast.requests;
  const range = fewest === most ? `${most}` : `${fewest}–${most}`;
  const open = forecast.open.length
    ? `, plus what ${forecast.open.map(id => `\`${id}\``).join(', ')} decide${forecast.open.length === 1 ? 's' : ''} during the run (scripts' \`thinkHard\`, adaptive agents, gap-check retries, one agent per ticket)`
    : '';
  const cost = forecastCost(forecast.requests, DEEP_WORK_TOKENS_PER_REQUEST, price);
  return `This run's agents make ${range} model request${most === 1 ? '' : 's'}${open}: ${cost}. If the model answers in the wrong format, each agent reply may take up to ${MAX_REPAIRS_PER_REPLY} repair requests more, within the run's limit.`;
}
