/**
 * A deep-work run's forecasts beside what it spent: the one shown at its start, and each phase's as last shown before
 * it ran (at the start and at every checkpoint, where the chat shows them: the re-forecast from what was spent),
 * summed over the run, and whether each phase's bound held what it made.
 */
import { NO_HISTORY, type ForecastHistory } from '../src/core/deepWork/forecastHistory';
import {
  forecastFigures,
  forecastWorkflow,
  mostTokensPerRequest,
  type ForecastModel,
} from '../src/core/deepWork/workflowForecast';
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
 * what was spent), and the whole run's as shown at its start: with no earlier run, and (when `history` holds earlier
 * runs of the workflow, as the chat reads them from the run store) learnt from them. The re-forecasts use `history`.
 */
export class ForecastTally {
  private readonly latest = new Map<string, PhaseShown>();
  private atStart: { readonly expected: Figure; readonly most: Figure } | undefined;
  private atStartLearnt: Figure | undefined;

  constructor(
    private readonly workflow: WorkflowDefinition,
    private readonly model: ForecastModel,
    private readonly history: ForecastHistory = NO_HISTORY,
  ) {}

  /** The forecast shown before the next phase of `state` (none: a new run). */
  shown(state?: WorkflowRunState): void {
    const most = mostTokensPerRequest(state);
    const phases = forecastWorkflow(this.workflow, state, undefined, this.model, this.history);
    for (const f of phases) {
      const figures = forecastFigures([{ ...f, routeBack: 0 }], undefined, most);
      this.latest.set(f.phase, {
        expected: figures.expected,
        most: figures.most,
        before: state ? phaseRequests(state, f.phase) : 0,
      });
    }
    if (!state) {
      const fresh = forecastFigures(forecastWorkflow(this.workflow, undefined, undefined, this.model), undefined);
      this.atStart = { expected: fresh.expected, most: fresh.most };
      if (this.history.size > 0) this.atStartLearnt = forecastFigures(phases, undefined).expected;
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
      ...(this.atStartLearnt
        ? {
            learntExpectedRequests: this.atStartLearnt.requests,
            learntExpectedTokens: Math.round(this.atStartLearnt.tokens),
          }
        : {}),
      startMostRequests: this.atStart?.most.requests ?? 0,
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
  /** The whole run's expected figure, as shown at its start with no earlier run in the workspace. */
  readonly startExpectedRequests: number;
  readonly startExpectedTokens: number;
  /** The same, learnt from the earlier runs the tally was given (absent without any). */
  readonly learntExpectedRequests?: number;
  readonly learntExpectedTokens?: number;
  /** The whole run's bound as shown at its start (a route-back included). */
  readonly startMostRequests: number;
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
  const learnt =
    f.learntExpectedRequests === undefined || f.learntExpectedTokens === undefined
      ? ''
      : `, learnt from earlier runs ${f.learntExpectedRequests} / ${f.learntExpectedTokens} (÷ spent ${ratio(f.learntExpectedRequests, f.spentRequests)} / ${ratio(f.learntExpectedTokens, f.spentTokens)})`;
  return (
    `at the start, no history: expected ${f.startExpectedRequests} / ${f.startExpectedTokens} (÷ spent ${ratio(f.startExpectedRequests, f.spentRequests)} / ${ratio(f.startExpectedTokens, f.spentTokens)})${learnt}, at most ${f.startMostRequests} requests; re-forecast before each phase: ` +
    `expected ${f.expectedRequests} requests / ${f.expectedTokens} tokens, spent ${f.spentRequests} / ${f.spentTokens}: ` +
    `expected ÷ spent ${ratio(f.expectedRequests, f.spentRequests)} / ${ratio(f.expectedTokens, f.spentTokens)} (aim 0.8–1.25); ` +
    `at most ${f.mostRequests} / ${f.mostTokens}, ÷ spent ${ratio(f.mostRequests, f.spentRequests)} / ${ratio(f.mostTokens, f.spentTokens)} ` +
    `(every phase's bound >= its spending: ${f.holds ? 'yes' : 'NO'})`
  );
}
