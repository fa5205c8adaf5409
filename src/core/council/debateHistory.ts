import type { DebateProtocol } from './protocol';
import type { DebateOutcome } from './debateOutcome';
import { expectDebate, type DebateEstimate, type DebateExpectation } from './debatePlan';

/*
 * What Council has seen debates cost in this workspace, so the expected figure follows how debates here end and
 * how large their requests are, rather than a fixed prior. Host-free: the host stores the list it is given.
 */

/** How many finished debates the workspace keeps: enough to follow a habit, few enough to follow a change. */
export const DEBATE_HISTORY_LENGTH = 8;

/** `history` with `outcome` added, the oldest dropped beyond `DEBATE_HISTORY_LENGTH`. */
export function rememberDebate(history: readonly DebateOutcome[], outcome: DebateOutcome): readonly DebateOutcome[] {
  return [...history, outcome].slice(-DEBATE_HISTORY_LENGTH);
}

/** Keeps only well-formed outcomes of a stored list (stored data is untrusted: a bad entry is dropped, not fatal). */
export function readDebateHistory(raw: unknown): readonly DebateOutcome[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isOutcome).slice(-DEBATE_HISTORY_LENGTH);
}

function isOutcome(value: unknown): value is DebateOutcome {
  if (typeof value !== 'object' || value === null) return false;
  const o = value as Record<string, unknown>;
  const counts = ['seats', 'drafts', 'laterCycles', 'answer', 'inputTokens', 'outputTokens'];
  const ending = o.ending as Record<string, unknown> | undefined;
  return (
    (o.protocol === 'economy' || o.protocol === 'thorough') &&
    counts.every(k => typeof o[k] === 'number' && Number.isFinite(o[k]) && (o[k] as number) >= 0) &&
    (o.seats as number) > 0 &&
    typeof ending === 'object' &&
    ending !== null &&
    (ending.kind === 'first-vote' ||
      ending.kind === 'limit' ||
      (ending.kind === 'settled' && typeof ending.cycle === 'number'))
  );
}

function requestsOf(o: DebateOutcome): number {
  return o.drafts + o.laterCycles + o.answer;
}

/** Input and output tokens per request over `outcomes` (requests-weighted), or zeros when they spent none. */
function tokensPerRequest(outcomes: readonly DebateOutcome[]): { readonly input: number; readonly output: number } {
  const requests = outcomes.reduce((sum, o) => sum + requestsOf(o), 0);
  if (requests === 0) return { input: 0, output: 0 };
  return {
    input: outcomes.reduce((sum, o) => sum + o.inputTokens, 0) / requests,
    output: outcomes.reduce((sum, o) => sum + o.outputTokens, 0) / requests,
  };
}

/**
 * The requests and tokens a debate is expected to spend, from the workspace's finished debates of the same protocol
 * when there are any: their first and later cycles (scaled to this council's seats, never above the bound's) and their
 * tokens per request. Without such history: the prior (`expectDebate`). Never above the bound in requests.
 */
export function expectFromHistory(
  bound: DebateEstimate,
  protocol: DebateProtocol,
  seats: number,
  contextTokens: number,
  measured: { readonly input: number; readonly output: number },
  history: readonly DebateOutcome[],
  seatCost = 1,
): DebateExpectation {
  const same = history.filter(o => o.protocol === protocol);
  if (bound.total === 0 || same.length === 0)
    return expectDebate(bound, protocol, seats, contextTokens, measured, seatCost);
  // A debate's first cycle may be smaller than the bound's (thorough drafts that agree need no moderator).
  const perDebate = same.map(
    o =>
      Math.min(bound.drafts, (o.drafts * seats) / o.seats) +
      Math.min(bound.laterCycles, (o.laterCycles * seats) / o.seats),
  );
  const beforeAnswer = perDebate.reduce((sum, r) => sum + r, 0) / same.length;
  const requests = Math.min(bound.total, Math.round(beforeAnswer + bound.answer));
  const perRequest = tokensPerRequest(same);
  return {
    requests,
    input: Math.round(requests * perRequest.input),
    output: Math.round(requests * perRequest.output),
  };
}

/** What the first vote made known: the requests and tokens the debate has spent, and who is still apart. */
export interface AfterFirstVote {
  readonly spent: { readonly requests: number; readonly inputTokens: number; readonly outputTokens: number };
  /** Personas still in disagreement after cycle 1 (0 when the council agreed). */
  readonly apart: number;
  readonly seats: number;
  /** Requests the bound still allows after cycle 1: later cycles and the answer. */
  readonly laterCyclesBound: number;
  readonly answer: number;
}

/**
 * The debate's expected spend once the first vote is in: what it spent, plus the answer when the council agreed;
 * else later cycles as contested debates in the history went (scaled to those still apart), or, without them, one
 * cycle of those still apart; tokens per request as measured in cycle 1. Never above the bound.
 */
export function reforecastAfterFirstVote(
  known: AfterFirstVote,
  history: readonly DebateOutcome[],
  protocol: DebateProtocol,
  seatCost = 1,
): DebateExpectation {
  const { spent } = known;
  const contested = history.filter(o => o.protocol === protocol && o.ending.kind !== 'first-vote');
  const later =
    known.apart === 0
      ? 0
      : Math.min(
          known.laterCyclesBound,
          contested.length > 0
            ? contested.reduce((sum, o) => sum + (o.laterCycles * known.seats) / o.seats, 0) / contested.length
            : protocol === 'thorough'
              ? known.seats * seatCost + 1
              : known.apart * seatCost,
        );
  const remaining = Math.round(later) + known.answer;
  const requests = spent.requests + remaining;
  const per = spent.requests > 0 ? spent.inputTokens / spent.requests : 0;
  const perOut = spent.requests > 0 ? spent.outputTokens / spent.requests : 0;
  // Thorough: a later request also reads every seat's whole latest argument, about one cycle-1 reply each.
  const arguments_ = protocol === 'thorough' ? Math.round(later) * known.seats * perOut : 0;
  return {
    requests,
    input: Math.round(spent.inputTokens + remaining * per + arguments_),
    output: Math.round(spent.outputTokens + remaining * perOut),
  };
}
