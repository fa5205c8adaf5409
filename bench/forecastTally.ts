/**
 * A deep-work run's forecasts beside what it spent: the one shown at its start, and each phase's as last shown before
 * it ran (at the start and at every checkpoint, where the chat shows them: the re-forecast from what was spent),
 * summed over the run, and whether each phase's bound held what it made.
 */
import { forecastTokens, forecastWorkflow, type ForecastModel } from '../src/core/deepWork/workflowForecast';
import type { WorkflowDefinition } from '../src/core/workflow/definition/workflowDefinition';
import { phaseRequests, runSpent, type WorkflowRunState } from '../src/core/workflow/engine/workflowRunState';

interface Figure {
  readonly requests: number;
  readonly tokens: number;
}

interface PhaseShown {
  readonly expected: Figure;
  readonly most: Figure;
  /** Requests the phase had made when it was shown (a phase run again counts from there). */
  readonly before: number;
}

/**
 * Every phase's forecast as last shown before it ran (a later showing replaces an earlier one: the re-forecast from
 * what was spent), and the whole run's as shown at its start.
 */
export class ForecastTally {
  private readonly latest = new Map<string, PhaseShown>();
  private atStart: { readonly expected: Figure; readonly most: Figure } | undefined;

  constructor(
    private readonly workflow: WorkflowDefinition,
    private readonly model: ForecastModel,
  ) {}

  /** The forecast shown before the next phase of `state` (none: a new run). */
  shown(state?: WorkflowRunState): void {
    const each = forecastTokens(state);
    const figure = (requests: number, per: { readonly input: number; readonly output: number }): Figure => ({
      requests,
      tokens: requests * (per.input + per.output),
    });
    const phases = forecastWorkflow(this.workflow, state, undefined, this.model);
    for (const f of phases)
      this.latest.set(f.phase, {
        expected: figure(f.expected, each.expected),
        most: figure(f.requests.most, each.most),
        before: state ? phaseRequests(state, f.phase) : 0,
      });
    if (!state) {
      const sum = (pick: (f: (typeof phases)[number]) => number) => phases.reduce((n, f) => n + pick(f), 0);
      this.atStart = {
        expected: figure(
          sum(f => f.expected),
          each.expected,
        ),
        most: figure(
          sum(f => f.requests.most),
          each.most,
        ),
      };
    }
  }

  /** The sums against what the finished run `state` spent. */
  against(state: WorkflowRunState): ForecastFigures {
    const spent = runSpent(state);
    const spentTokens = spent.inputTokens + spent.outputTokens;
    const shown = [...this.latest.entries()];
    const total = (pick: (p: PhaseShown) => Figure): Figure =>
      shown.reduce(
        (sum, [, p]) => ({ requests: sum.requests + pick(p).requests, tokens: sum.tokens + pick(p).tokens }),
        {
          requests: 0,
          tokens: 0,
        },
      );
    const expected = total(p => p.expected);
    const most = total(p => p.most);
    const phasesHeld = shown.every(([phase, p]) => phaseRequests(state, phase) - p.before <= p.most.requests);
    return {
      startExpectedRequests: this.atStart?.expected.requests ?? 0,
      startExpectedTokens: Math.round(this.atStart?.expected.tokens ?? 0),
      expectedRequests: expected.requests,
      expectedTokens: Math.round(expected.tokens),
      mostRequests: most.requests,
      mostTokens: Math.round(most.tokens),
      spentRequests: spent.requests,
      spentTokens,
      holds: phasesHeld && most.requests >= spent.requests && most.tokens >= spentTokens,
    };
  }
}

export interface ForecastFigures {
  /** The whole run's expected figure, as shown at its start. */
  readonly startExpectedRequests: number;
  readonly startExpectedTokens: number;
  /** Each phase's, as last shown before it ran, summed. */
  readonly expectedRequests: number;
  readonly expectedTokens: number;
  readonly mostRequests: number;
  readonly mostTokens: number;
  readonly spentRequests: number;
  readonly spentTokens: number;
  /** Every phase's bound held what it made, and the summed bound the run's requests and tokens. */
  readonly holds: boolean;
}

/** The figures in one line: expected and at most, each beside what was spent, with their ratios. */
export function forecastLine(f: ForecastFigures): string {
  const ratio = (a: number, b: number) => (b === 0 ? '–' : (a / b).toFixed(2));
  return (
    `at the start expected ${f.startExpectedRequests} / ${f.startExpectedTokens} (÷ spent ${ratio(f.startExpectedRequests, f.spentRequests)} / ${ratio(f.startExpectedTokens, f.spentTokens)}); re-forecast before each phase: ` +
    `expected ${f.expectedRequests} requests / ${f.expectedTokens} tokens, spent ${f.spentRequests} / ${f.spentTokens}: ` +
    `expected ÷ spent ${ratio(f.expectedRequests, f.spentRequests)} / ${ratio(f.expectedTokens, f.spentTokens)} (aim 0.8–1.25); ` +
    `at most ${f.mostRequests} / ${f.mostTokens}, ÷ spent ${ratio(f.mostRequests, f.spentRequests)} / ${ratio(f.mostTokens, f.spentTokens)} ` +
    `(every phase's bound >= its spending: ${f.holds ? 'yes' : 'NO'})`
  );
}
