import type { DebateOutlook } from '../session/debateOutlook';
import type { DebateProtocol } from './protocol';
import type { CouncilDeps } from './ports';
import { groundingApplies, PERSONA_EXPLORATION_LIMITS } from './workspaceGrounding';

/*
 * How the request budget shapes a debate, in one place: what a cycle may cost, who may speak, and what the
 * council expects to spend. The governor itself refuses any request beyond a limit; this plans
 * so that it rarely has to.
 */

/** Requests kept back for the final answer while cycles are planned. */
const ANSWER_RESERVE = 1;

/** Requests the session may still spend, by its request and credit limits (Infinity without a limit). */
export function remainingRequests(deps: Pick<CouncilDeps, 'governor'>): number {
  return deps.governor?.affordableRequests() ?? Infinity;
}

/**
 * The most requests one persona's contribution may take: 1, plus the look-up rounds when it may read the
 * workspace first (attached context or the setting).
 */
export function seatCost(deps: Pick<CouncilDeps, 'workspace'>, attachedItems: number): number {
  return 1 + (groundingApplies(deps.workspace, attachedItems) ? PERSONA_EXPLORATION_LIMITS.maxRounds : 0);
}

/** Whether a step costing `requests` still leaves the answer's reserve. */
export function cycleAffordable(requests: number, deps: Pick<CouncilDeps, 'governor'>): boolean {
  return remainingRequests(deps) >= requests + ANSWER_RESERVE;
}

/** Throws the budget's failure when the first cycle (`requests`) cannot be paid: without drafts there is nothing to conclude. */
export function requireFirstCycle(requests: number, deps: Pick<CouncilDeps, 'governor'>): void {
  if (remainingRequests(deps) >= requests) return;
  throw deps.governor!.shortfall(requests, 'the first drafts of the debate');
}

/**
 * Throws, before anything is spent on it, when the smallest council that can still give an answer does not fit:
 * `drafts` first drafts (the minimum panel's) plus the answer, plus `before` requests still to come first (the opening).
 */
export function requireSmallestCouncil(
  drafts: number,
  before: number,
  deps: Pick<CouncilDeps, 'governor'>,
  seatCost = 1,
): void {
  const governor = deps.governor;
  if (!governor) return;
  const requests = before + drafts * seatCost + ANSWER_RESERVE;
  const parts = [
    ...(before > 0 ? ['the opening'] : []),
    `the first drafts of ${drafts} persona${drafts === 1 ? '' : 's'}`,
    'the answer',
  ];
  const forWhat = `its smallest useful council (${parts.join(', ').replace(/, ([^,]*)$/, ' and $1')})`;
  const { maxRequests } = governor.limits;
  if (maxRequests !== undefined && maxRequests - governor.spent.requests < requests)
    throw governor.shortfall(requests, forWhat);
  // Credits: the opening runs alone, the drafts at once (each reserving its share), the answer after them.
  const planned = governor.plannedCredits();
  if (!planned) return;
  const batch = drafts * seatCost;
  const opening = before * planned.expected;
  const need = Math.max(
    before > 0 ? planned.reserve : 0,
    opening + batch * planned.reserve,
    opening + batch * planned.expected + ANSWER_RESERVE * planned.reserve,
  );
  if (need > governor.creditsLeft()) throw governor.creditShortfall(need, requests, forWhat);
}

/**
 * How many of `waiting` personas may draft at once now: as many as the limits pay for while keeping the answer's
 * request (a batch sent at once reserves every request's credits together); 0 when none fits.
 */
export function batchSize(waiting: number, deps: Pick<CouncilDeps, 'governor'>, seatCost = 1): number {
  return Math.max(0, Math.min(waiting, Math.floor((remainingRequests(deps) - ANSWER_RESERVE) / seatCost)));
}

/**
 * How many of `contested` personas the economy protocol seats in the next cycle with `remaining` requests:
 * all of them when the budget allows, else as many as it allows, and none when fewer than two could speak.
 */
export function seatsForNextCycle(contested: number, remaining: number, seatCost = 1, minimum = 2): number {
  const seats = Math.min(contested, Math.floor((remaining - ANSWER_RESERVE) / seatCost));
  return seats >= minimum ? seats : 0;
}

/** What a debate is expected to cost from its start, if no cycle converges and nothing fails. */
export interface DebateEstimate {
  /** Requests of cycle 1 (every persona drafts). */
  readonly drafts: number;
  /** Requests of the cycles after the first (economy: at most; thorough: with the moderator's). */
  readonly laterCycles: number;
  /** Cycles after the first that fit the limit and the budget. */
  readonly laterCycleCount: number;
  /** 1 for the streamed answer, 0 when the budget leaves none (the answer is then built from the session). */
  readonly answer: number;
  readonly total: number;
}

/**
 * The most requests a debate of `seats` personas over at most `cycleLimit` cycles will make with `remaining`
 * requests left, playing out the same rules the debate runs by (economy: every cycle seats everyone still in
 * disagreement, trimmed to the budget; thorough: everyone plus the moderator). When no cycle converges and
 * no request fails or is repaired, the debate makes exactly this many.
 */
export function estimateDebate(
  protocol: DebateProtocol,
  seats: number,
  cycleLimit: number,
  remaining: number,
  seatCost = 1,
): DebateEstimate {
  const perCycle = seats * seatCost + (protocol === 'thorough' ? 1 : 0);
  let left = remaining;
  if (left < perCycle) return { drafts: 0, laterCycles: 0, laterCycleCount: 0, answer: 0, total: 0 };
  left -= perCycle;
  let later = 0;
  let count = 0;
  for (let cycle = 2; cycle <= cycleLimit && seats >= 2; cycle++) {
    const cost =
      protocol === 'thorough'
        ? left >= perCycle + ANSWER_RESERVE
          ? perCycle
          : 0
        : seatsForNextCycle(seats, left, seatCost) * seatCost;
    if (cost === 0) break;
    left -= cost;
    later += cost;
    count += 1;
  }
  const answer = left >= 1 ? 1 : 0;
  return { drafts: perCycle, laterCycles: later, laterCycleCount: count, answer, total: perCycle + later + answer };
}

/** Tokens each later-cycle request is assumed to add per seat (a colleague's compact position). */
const POSITION_TOKENS = 250;
/** Tokens of a step's instructions and reply schema, beyond the request and its context. */
const STEP_OVERHEAD_TOKENS = 1_500;
/** Output tokens assumed per request (a contribution; the written answer is longer, hence the extra). */
const OUTPUT_TOKENS = 600;
/** Output tokens a council request is expected to produce, for planning what sequential steps will cost. */
export const EXPECTED_OUTPUT_TOKENS = OUTPUT_TOKENS;
const ANSWER_EXTRA_OUTPUT_TOKENS = 900;

/**
 * The tokens `requests` council requests are assumed to spend at most when nothing fails: each carries the
 * request and its context (`contextTokens`), the step's instructions, and every seat's position — under
 * `thorough`, every seat's whole latest argument too (a contribution's output). The bench checks that this stays
 * above what a debate spends.
 */
export function debateTokens(
  requests: number,
  contextTokens: number,
  seats: number,
  protocol: DebateProtocol = 'economy',
): { readonly input: number; readonly output: number } {
  if (requests === 0) return { input: 0, output: 0 };
  const perSeat = POSITION_TOKENS + (protocol === 'thorough' ? OUTPUT_TOKENS : 0);
  return {
    input: requests * (contextTokens + STEP_OVERHEAD_TOKENS + seats * perSeat),
    output: requests * OUTPUT_TOKENS + ANSWER_EXTRA_OUTPUT_TOKENS,
  };
}

/** Tokens each persona of the catalogue adds to the opening's request (its name, role and expertise). */
const CATALOGUE_TOKENS_PER_PERSONA = 100;
/** Output tokens of an opening: the council, why, and a few questions with their recommended answers. */
const OPENING_OUTPUT_TOKENS = 400;

/**
 * The tokens one opening (or persona selection) request is assumed to spend: the request and its context, the
 * step's instructions and schema, and the catalogue of `personas` it chooses from; a short reply.
 */
export function openingTokens(
  contextTokens: number,
  personas: number,
): { readonly input: number; readonly output: number } {
  return {
    input: contextTokens + STEP_OVERHEAD_TOKENS + personas * CATALOGUE_TOKENS_PER_PERSONA,
    output: OPENING_OUTPUT_TOKENS,
  };
}

/** What a debate will probably cost: how debates usually end, not the worst case `estimateDebate` bounds. */
export interface DebateExpectation {
  readonly requests: number;
  readonly input: number;
  readonly output: number;
}

/**
 * The requests a debate is expected to make by the opening's read (`outlook`): drafts that agree make the first
 * cycle's contributions (thorough needs no moderator then) and the answer; a debate that settles adds one later cycle
 * (economy: about half the seats, at least two; thorough: everyone with the moderator's verdict); a standoff runs to
 * the bound. Without a read, the middle case. Never above the bound.
 */
function expectedRequests(
  bound: DebateEstimate,
  protocol: DebateProtocol,
  seats: number,
  seatCost: number,
  outlook: DebateOutlook | undefined,
): DebateShape {
  if (outlook === 'standoff') return { requests: bound.total, later: bound.laterCycles, answer: bound.answer };
  if (outlook === 'agree')
    return { requests: Math.min(bound.drafts, seats * seatCost) + bound.answer, later: 0, answer: bound.answer };
  const apart = Math.max(2, Math.ceil(seats / 2));
  const oneLaterCycle = protocol === 'thorough' ? bound.drafts : Math.min(seats, apart) * seatCost;
  const later = bound.laterCycleCount > 0 ? Math.min(bound.laterCycles, oneLaterCycle) : 0;
  return { requests: bound.drafts + later + bound.answer, later, answer: bound.answer };
}

/** How many requests a debate makes in all, how many of them in cycles after the first, and its answer's (0 or 1). */
export interface DebateShape {
  readonly requests: number;
  readonly later: number;
  readonly answer: number;
}

/**
 * The tokens a debate of `shape` is assumed to spend. Per request: what the session's contributions carried so far
 * (`measured`, their mean, tool schemas included; zeros before the first), else the request with its context and a
 * contribution's instructions and reply schema (a later cycle quotes positions but no longer repeats the persona's
 * guidance, so about the same), and a contribution's reply; the answer's reply is longer. Thorough: a later-cycle
 * request also reads every seat's whole latest argument. Not the opening's size: its persona catalogue and schema
 * make its request larger than a contribution, and its reply shorter.
 */
export function shapeTokens(
  shape: DebateShape,
  protocol: DebateProtocol,
  seats: number,
  contextTokens: number,
  measured: { readonly input: number; readonly output: number } = { input: 0, output: 0 },
): { readonly input: number; readonly output: number } {
  const perRequest = measured.input > 0 ? measured.input : contextTokens + STEP_OVERHEAD_TOKENS;
  const perReply = measured.output > 0 ? measured.output : OUTPUT_TOKENS;
  const arguments_ = protocol === 'thorough' ? shape.later * seats * perReply : 0;
  return {
    input: shape.requests * perRequest + arguments_,
    output: shape.requests * perReply + (shape.answer > 0 ? ANSWER_EXTRA_OUTPUT_TOKENS : 0),
  };
}

/**
 * The requests and tokens a debate is expected to spend, from the rules it runs by and the opening's read (see
 * `expectedRequests`), its tokens as `shapeTokens` assumes them.
 */
export function expectDebate(
  bound: DebateEstimate,
  protocol: DebateProtocol,
  seats: number,
  contextTokens: number,
  measured: { readonly input: number; readonly output: number },
  seatCost = 1,
  outlook?: DebateOutlook,
): DebateExpectation {
  if (bound.total === 0) return { requests: 0, input: 0, output: 0 };
  const shape = expectedRequests(bound, protocol, seats, seatCost, outlook);
  return { requests: shape.requests, ...shapeTokens(shape, protocol, seats, contextTokens, measured) };
}
