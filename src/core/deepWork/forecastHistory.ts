import type { TokensPerRequest } from '../llm/spending/forecastCost';
import { phaseRequests, phaseStep, type WorkflowRunState } from '../workflow/engine/workflowRunState';

/** What earlier runs of a workflow in this workspace measured for one of its phases. */
export interface PhaseMeasure {
  /** Requests one pass of the phase made, averaged over the runs that completed it. */
  readonly requestsPerPass: number;
  /** Tokens (in and out) one of its requests took, averaged over those runs' requests. */
  readonly each: TokensPerRequest;
}

/** What a forecast learns from earlier runs, by phase id (empty: no run of the workflow has completed a phase). */
export type ForecastHistory = ReadonlyMap<string, PhaseMeasure>;

export const NO_HISTORY: ForecastHistory = new Map();

/**
 * Runs remembered per phase: the newest few, so the forecast follows what the workspace and Council's prompts cost
 * now (a shorter prompt in a newer Council shows in the next run's forecast) rather than long ago.
 */
const REMEMBERED_RUNS = 5;

/** What an earlier run is read for: its workflow, the phases it completed and their passes, and its ledger. */
export type MeasuredRun = Pick<WorkflowRunState, 'runId' | 'spending'> & {
  readonly context: {
    readonly workflow: { readonly name: string };
    readonly phases: Pick<WorkflowRunState['context']['phases'], 'completed' | 'iteration_counts'>;
  };
};

/**
 * What earlier runs of `workflow` spent, phase by phase, from their stored ledgers: requests per pass and tokens per
 * request of every phase they completed, over the newest {@link REMEMBERED_RUNS} runs that completed it (`runs`
 * newest first, as the run store lists them; `except` is the run being forecast, never its own history).
 */
export function forecastHistory(workflow: string, runs: readonly MeasuredRun[], except?: string): ForecastHistory {
  const sums = new Map<string, { runs: number; passes: number; requests: number; input: number; output: number }>();
  for (const run of runs) {
    if (run.context.workflow.name !== workflow || run.runId === except) continue;
    for (const phase of run.context.phases.completed) {
      const sum = sums.get(phase) ?? { runs: 0, passes: 0, requests: 0, input: 0, output: 0 };
      const requests = phaseRequests(run, phase);
      if (sum.runs >= REMEMBERED_RUNS || requests === 0) continue;
      const lines = run.spending.filter(line => line.step === phaseStep(phase));
      sum.runs += 1;
      sum.passes += Math.max(1, run.context.phases.iteration_counts[phase] ?? 1);
      sum.requests += requests;
      sum.input += lines.reduce((n, line) => n + line.inputTokens, 0);
      sum.output += lines.reduce((n, line) => n + line.outputTokens, 0);
      sums.set(phase, sum);
    }
  }
  return new Map(
    [...sums].map(([phase, sum]) => [
      phase,
      {
        requestsPerPass: sum.requests / sum.passes,
        each: { input: Math.round(sum.input / sum.requests), output: Math.round(sum.output / sum.requests) },
      },
    ]),
  );
}
