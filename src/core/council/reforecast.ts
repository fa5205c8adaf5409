import { forecastText, type ForecastFigure } from '../llm/spending/forecastText';
import { reforecastLimitNote } from './wording/limitNotes';
import type { SpendTotals } from '../llm/spending/ledger';
import { remainingRequests } from './debatePlan';
import { reforecastAfterFirstVote } from './debateHistory';
import type { CouncilDeps } from './ports';
import type { SessionLog } from './sessionLog';
import { afterFirstVoteForecast } from './wording/progressText';

/** A later request may carry more than cycle 1's mean (the positions it answers): the bound allows half again. */
const LATER_REQUEST_GROWTH = 1.5;

/**
 * Shows the progress line after the first vote and hands its figures to the governor, whose refusals from here
 * on say them (see `afterFirstVoteLine`).
 */
export function announceReforecast(...args: Parameters<typeof afterFirstVoteLine>): void {
  const [, deps] = args;
  const { line, expected, bound } = afterFirstVoteLine(...args);
  deps.governor?.setForecast(reforecastLimitNote(expected, bound));
  deps.output.progress(line);
}

/**
 * The progress line after the first vote: what the debate now expects to spend in all (spent since `debateStart`,
 * plus the rest as `reforecastAfterFirstVote` sees it) and the most it can (every request the limits and the cycle
 * limit still allow). `apart`: personas still in disagreement (0 when the council agreed); `seats`: the council's; `speakersPerCycle`: who a
 * later cycle seats.
 */
function afterFirstVoteLine(
  log: SessionLog,
  deps: CouncilDeps,
  debateStart: SpendTotals,
  apart: number,
  seats: number,
  speakersPerCycle: number,
  cyclesLeft: number,
  seatCost: number,
): { readonly line: string; readonly expected: ForecastFigure; readonly bound: ForecastFigure } {
  const protocol = deps.protocol ?? 'economy';
  const spent = {
    requests: log.spent.requests - debateStart.requests,
    inputTokens: log.spent.inputTokens - debateStart.inputTokens,
    outputTokens: log.spent.outputTokens - debateStart.outputTokens,
  };
  const remaining = Math.min(remainingRequests(deps), Number.MAX_SAFE_INTEGER);
  const answer = remaining >= 1 ? 1 : 0;
  const perCycle = speakersPerCycle * seatCost + (protocol === 'thorough' ? 1 : 0);
  const laterCyclesBound = apart === 0 ? 0 : Math.max(0, Math.min(remaining - answer, cyclesLeft * perCycle));
  const expected = reforecastAfterFirstVote(
    { spent, apart, seats, laterCyclesBound, answer },
    deps.debateHistory?.read() ?? [],
    protocol,
    seatCost,
  );
  // Drafts already sent for the next cycle (thorough drafts ahead while the moderator reads) are paid too.
  const inFlight = deps.governor?.requestsInFlight ?? 0;
  const boundRequests = spent.requests + inFlight + laterCyclesBound + answer;
  const perRequest = spent.requests > 0 ? (spent.inputTokens + spent.outputTokens) / spent.requests : 0;
  const rest = boundRequests - spent.requests;
  // Thorough: each later request also reads every seat's whole latest argument (about a cycle-1 reply each).
  const argumentsRead =
    protocol === 'thorough' ? (laterCyclesBound * seats * spent.outputTokens) / Math.max(1, spent.requests) : 0;
  const boundInput =
    spent.inputTokens +
    (rest * LATER_REQUEST_GROWTH * spent.inputTokens) / Math.max(1, spent.requests) +
    LATER_REQUEST_GROWTH * argumentsRead;
  const boundOutput =
    spent.outputTokens + (rest * LATER_REQUEST_GROWTH * spent.outputTokens) / Math.max(1, spent.requests);
  const quote = (input: number, output: number) => deps.governor?.quote(deps.model, input, output);
  const expectedFigure: ForecastFigure = {
    requests: expected.requests,
    tokens: expected.input + expected.output,
    credits: quote(expected.input, expected.output),
  };
  const bound: ForecastFigure = {
    requests: boundRequests,
    tokens: Math.round(perRequest > 0 ? boundInput + boundOutput : 0),
    credits: quote(boundInput, boundOutput),
  };
  return {
    line: afterFirstVoteForecast(apart === 0, forecastText(expectedFigure, bound)),
    expected: expectedFigure,
    bound,
  };
}
