import type { ForecastFigure } from '../llm/spending/forecastText';
import type { SpendingLimits } from '../llm/spending/governor';
import type { LedgerLine, SpendTotals } from '../llm/spending/ledger';
import type { DebateOutlook } from '../session/debateOutlook';
import { MAX_PANEL } from '../personas/select';
import type { SessionSnapshot } from '../session/machine';
import { effectiveCycleLimit } from '../session/selectors';
import { expectFromHistory } from './debateHistory';
import type { DebateOutcome } from './debateOutcome';
import { debateTokens, estimateDebate, type DebateEstimate } from './debatePlan';
import type { DebateProtocol } from './protocol';

/*
 * The two figures of a debate still to come, from the rules it runs by: what it will probably spend (how debates
 * in this workspace end, the request sizes measured so far) and the most it can (every cycle the limits allow).
 * One computation for every place that shows a debate's forecast: the chat before the debate, `/status`, and the
 * sentence a limit's refusal adds.
 */

/** Who the ledger charges the council's own requests to (the opening, the moderator), as opposed to a persona. */
export const COUNCIL_LEDGER_NAME = 'Council';

/** What the forecast of a debate is made from. */
export interface DebateForecastInput {
  readonly protocol: DebateProtocol;
  readonly seats: number;
  /** Cycles the debate may still run. */
  readonly cycleLimit: number;
  /** Requests the limits still pay for (Infinity without a limit). */
  readonly remaining: number;
  /** Requests one contribution may take (1, plus the workspace look-ups). */
  readonly seatCost: number;
  /** Tokens of what every request carries: the request and the attached context. */
  readonly contextTokens: number;
  /** Mean input and output tokens per contribution measured in this session (zeros before any). */
  readonly measured: { readonly input: number; readonly output: number };
  /** The workspace's finished debates. */
  readonly history: readonly DebateOutcome[];
  /** The opening's read of how far apart the council will start (undefined: none). */
  readonly outlook?: DebateOutlook | undefined;
  /** Credits of these tokens on the council's model (undefined: price unknown). */
  readonly quote: (input: number, output: number) => number | undefined;
}

/** A debate's forecast: the bound by part (`estimate`), and both figures in requests, tokens and credits. */
export interface DebateForecastFigures {
  readonly estimate: DebateEstimate;
  readonly expected: ForecastFigure;
  readonly bound: ForecastFigure;
}

/** The debate's two figures; undefined when the limits leave room for no cycle at all. */
export function forecastDebate(input: DebateForecastInput): DebateForecastFigures | undefined {
  const remaining = input.remaining === Infinity ? Number.MAX_SAFE_INTEGER : input.remaining;
  const estimate = estimateDebate(input.protocol, input.seats, input.cycleLimit, remaining, input.seatCost);
  if (estimate.total === 0) return undefined;
  const most = debateTokens(estimate.total, input.contextTokens, input.seats, input.protocol);
  const likely = expectFromHistory(
    estimate,
    input.protocol,
    input.seats,
    input.contextTokens,
    input.measured,
    input.history,
    input.seatCost,
    input.outlook,
  );
  return {
    estimate,
    expected: {
      requests: likely.requests,
      tokens: likely.input + likely.output,
      credits: input.quote(likely.input, likely.output),
    },
    bound: {
      requests: estimate.total,
      tokens: most.input + most.output,
      credits: input.quote(most.input, most.output),
    },
  };
}

/**
 * Mean input and output tokens per persona contribution among `ledger`'s lines (its "cycle N" steps, not the
 * moderator's), zeros before the first: what a debate's requests are like. The opening's are not: its persona
 * catalogue and schema make its request larger and its reply shorter.
 */
export function measuredContributions(
  ledger: readonly Pick<LedgerLine, 'who' | 'step' | 'requests' | 'inputTokens' | 'outputTokens'>[],
): { readonly input: number; readonly output: number } {
  const lines = ledger.filter(line => /^cycle \d+$/.test(line.step) && line.who !== COUNCIL_LEDGER_NAME);
  const requests = lines.reduce((sum, line) => sum + line.requests, 0);
  if (requests === 0) return { input: 0, output: 0 };
  return {
    input: Math.round(lines.reduce((sum, line) => sum + line.inputTokens, 0) / requests),
    output: Math.round(lines.reduce((sum, line) => sum + line.outputTokens, 0) / requests),
  };
}

/** What the debate a stored session still has ahead is forecast from, outside a turn (`/status`, the agent's tools). */
export interface DebateAheadFacts {
  readonly protocol: DebateProtocol;
  readonly limits: SpendingLimits;
  readonly seatCost: number;
  readonly contextTokens: number;
  readonly history: readonly DebateOutcome[];
  readonly quote: (input: number, output: number) => number | undefined;
  /** Cycles the debate may still run; default: what the session's cycle limit leaves, and none once it answered. */
  readonly cycles?: number;
}

/** The states in which a session still has its debate, or some of it, ahead. */
const BEFORE_THE_ANSWER: ReadonlySet<string> = new Set(['created', 'clarifying', 'debating']);

/**
 * The forecast of the debate `session` still has ahead: its council's seats (the largest panel before one is
 * chosen), the cycles left, and the requests its limits still pay for (credits at the session's mean per request,
 * as the governor plans). Undefined when no debate lies ahead or the limits leave room for no cycle.
 */
export function debateAhead(
  session: {
    readonly snapshot: SessionSnapshot;
    readonly spent: SpendTotals;
    readonly ledger: { readonly entries: readonly LedgerLine[] };
  },
  facts: DebateAheadFacts,
): DebateForecastFigures | undefined {
  const { snapshot, spent, ledger } = session;
  const cycles =
    facts.cycles ??
    (BEFORE_THE_ANSWER.has(snapshot.value) ? effectiveCycleLimit(snapshot) - snapshot.context.debateCycles : 0);
  if (cycles <= 0) return undefined;
  const seated = snapshot.context.participants.filter(p => p.type === 'persona').length;
  return forecastDebate({
    protocol: facts.protocol,
    seats: seated > 0 ? seated : MAX_PANEL,
    cycleLimit: cycles,
    remaining: requestsLeft(spent, facts.limits),
    seatCost: facts.seatCost,
    contextTokens: facts.contextTokens,
    measured: measuredContributions(ledger.entries),
    history: facts.history,
    outlook: snapshot.context.selection?.outlook,
    quote: facts.quote,
  });
}

/** Requests `limits` still pay for after `spent`, each priced at the mean so far (Infinity without a limit). */
function requestsLeft(spent: SpendTotals, limits: SpendingLimits): number {
  let left = limits.maxRequests === undefined ? Infinity : Math.max(0, limits.maxRequests - spent.requests);
  if (limits.maxCredits !== undefined && spent.requests > 0 && spent.credits > 0)
    left = Math.min(
      left,
      Math.floor(Math.max(0, limits.maxCredits - spent.credits) / (spent.credits / spent.requests)),
    );
  return left;
}
