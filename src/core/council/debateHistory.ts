import { DEBATE_OUTLOOKS, type DebateOutlook } from '../session/debateOutlook';
import type { DebateProtocol } from './protocol';
import type { DebateOutcome } from './debateOutcome';
import { expectDebate, shapeTokens, type DebateEstimate, type DebateExpectation } from './debatePlan';

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
    (o.outlook === undefined || (DEBATE_OUTLOOKS as readonly unknown[]).includes(o.outlook)) &&
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

/**
 * How the workspace's requests compare with what the prior assumes (`shapeTokens` without measurements): actual ÷
 * assumed, in and out, over `outcomes`, each assumed for its own shape (so a thorough standoff's long later cycles
 * are not read as large requests); 1 when they spent none.
 */
function tokenScale(
  outcomes: readonly DebateOutcome[],
  contextTokens: number,
): { readonly input: number; readonly output: number } {
  let input = 0;
  let output = 0;
  let assumedInput = 0;
  let assumedOutput = 0;
  for (const o of outcomes) {
    const assumed = shapeTokens(
      { requests: requestsOf(o), later: o.laterCycles, answer: o.answer },
      o.protocol,
      o.seats,
      contextTokens,
    );
    input += o.inputTokens;
    output += o.outputTokens;
    assumedInput += assumed.input;
    assumedOutput += assumed.output;
  }
  return {
    input: assumedInput > 0 && input > 0 ? input / assumedInput : 1,
    output: assumedOutput > 0 && output > 0 ? output / assumedOutput : 1,
  };
}

/**
 * The requests and tokens a debate is expected to spend, from the workspace's finished debates of the same protocol
 * and the same opening read (`outlook`; every one of the protocol when there is no read) when there are any: their
 * first and later cycles (scaled to this council's seats, never above the bound's), and their tokens as the prior
 * assumes them for that shape, scaled by how this workspace's requests compared with it. A debate its limit stopped
 * before any later cycle says nothing of how far one goes, so it is left out while this bound allows later cycles.
 * Without such history: the prior for the read (`expectDebate`). Never above the bound in requests.
 */
export function expectFromHistory(
  bound: DebateEstimate,
  protocol: DebateProtocol,
  seats: number,
  contextTokens: number,
  measured: { readonly input: number; readonly output: number },
  history: readonly DebateOutcome[],
  seatCost = 1,
  outlook?: DebateOutlook,
): DebateExpectation {
  const alike = history.filter(
    o =>
      o.protocol === protocol &&
      (outlook === undefined || o.outlook === outlook) &&
      !(o.ending.kind === 'limit' && o.laterCycles === 0 && bound.laterCycleCount > 0),
  );
  if (bound.total === 0 || alike.length === 0)
    return expectDebate(bound, protocol, seats, contextTokens, measured, seatCost, outlook);
  // A debate's first cycle may be smaller than the bound's (thorough drafts that agree need no moderator).
  const mean = (pick: (o: DebateOutcome) => number) => alike.reduce((sum, o) => sum + pick(o), 0) / alike.length;
  const drafts = mean(o => Math.min(bound.drafts, (o.drafts * seats) / o.seats));
  const later = mean(o => Math.min(bound.laterCycles, (o.laterCycles * seats) / o.seats));
  const requests = Math.min(bound.total, Math.round(drafts + later + bound.answer));
  const shape = { requests, later: Math.min(Math.round(later), requests), answer: bound.answer };
  const assumed = shapeTokens(shape, protocol, seats, contextTokens, measured);
  const scale = measured.input > 0 ? { input: 1, output: 1 } : tokenScale(alike, contextTokens);
  return {
    requests,
    input: Math.round(assumed.input * scale.input),
    output: Math.round(assumed.output * scale.output),
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
