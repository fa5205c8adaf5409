import type { DebateCycleRecord } from './prompts/promptData';
import { throwIfCancelled } from '../llm/languageModel';
import { findCurrentDiscussion, spokenPersonaIds } from '../session/queries';
import { effectiveCycleLimit } from '../session/selectors';
import {
  absencesOf,
  absentField,
  cyclePositions,
  namesOf,
  openCycle,
  requireAContribution,
  showAbsent,
  speakInCycle,
  type Absence,
} from './debate';
import { batchSize, remainingRequests, requireSmallestCouncil, seatCost, seatsForNextCycle } from './debatePlan';
import { MIN_PANEL } from '../personas/select';
import type { DecisionOption } from '../session/decisionOptions';
import { combinedConfidence, optionStanding } from './optionVote';
import { cycleSummary } from './wording/markdown';
import { economyCycleProgress } from './wording/progressText';
import { announceReforecast } from './reforecast';
import type { SpendTotals } from '../llm/spending/ledger';
import { showVisibly, type CouncilDeps } from './ports';
import type { Recorder, SessionLog } from './sessionLog';
import { councilSeats, debateRecords, presentSeats, type Seat } from './sessionFacts';
import { voteIsStable } from './councilVote';

/*
 * The economy protocol (the default): independent first drafts from every persona; after that, only the
 * personas still in disagreement speak again; the council has converged when every persona says it agrees
 * with every other (their own `agreesWith`, no moderator request). Minority positions stay on the record and
 * reach the final answer.
 */

/** Where the council stands: each persona's latest stance and who still disagrees with whom. */
export interface Standing {
  /** Personas in at least one disagreement, most disagreements first (council order breaks ties). */
  readonly contested: readonly Seat[];
  /** Pairs of personas where at least one does not agree with the other. */
  readonly disagreements: readonly (readonly [Seat, Seat])[];
}

/** Each persona's latest `agreesWith`, by lower-cased name (a persona keeps its stance from the last cycle it spoke in). */
function latestAgreements(records: readonly DebateCycleRecord[]): Map<string, Set<string>> {
  const latest = new Map<string, Set<string>>();
  for (const record of records) {
    for (const c of record.contributions)
      latest.set(c.persona.toLowerCase(), new Set(c.agreesWith.map(n => n.trim().toLowerCase())));
  }
  return latest;
}

/** Who disagrees with whom after the cycles recorded so far. */
function standingOf(records: readonly DebateCycleRecord[], seats: readonly Seat[]): Standing {
  const agrees = latestAgreements(records);
  const agreesWith = (a: Seat, b: Seat) =>
    agrees.get(a.persona.name.toLowerCase())?.has(b.persona.name.toLowerCase()) ?? false;
  const disagreements: (readonly [Seat, Seat])[] = [];
  seats.forEach((a, i) => {
    for (const b of seats.slice(i + 1)) if (!agreesWith(a, b) || !agreesWith(b, a)) disagreements.push([a, b]);
  });
  const count = (seat: Seat) => disagreements.filter(pair => pair.includes(seat)).length;
  const contested = seats.filter(s => count(s) > 0).sort((a, b) => count(b) - count(a));
  return { contested, disagreements };
}

/** One line for the record (and the later prompts): who agrees, what is still contested. */
function standingSummary(standing: Standing, seats: readonly Seat[]): string {
  if (standing.disagreements.length === 0) {
    return seats.length < 2
      ? 'A single persona answered.'
      : `All ${seats.length} personas agree with each other's positions.`;
  }
  const pairs = standing.disagreements.map(([a, b]) => `${a.persona.name} – ${b.persona.name}`);
  return `Not yet agreed between: ${pairs.join('; ')}.`;
}

/** Who is still contested, for the per-cycle summary (their positions are listed below it). */
function openPoints(standing: CouncilStanding, seats: readonly Seat[]): string[] {
  const names = standing.contested.map(s => s.persona.name);
  return names.length === 0
    ? []
    : [`${names.length === seats.length ? 'all' : `${names.length} of ${seats.length}`} (${names.join(', ')}).`];
}

/** The decision's options of the session, when its opening named them. */
function optionsOf(log: SessionLog): readonly DecisionOption[] | undefined {
  const options = log.snapshot.context.selection?.options;
  return options && options.length > 0 ? options : undefined;
}

/**
 * Where the council stands after the cycles so far. With the decision's options, from the option vote: converged
 * when every persona who spoke backs the leading option without low confidence; contested are those who do not
 * (debate only where it matters). Without options, from who says it agrees with whom.
 */
/** Where the council stands for the next step: who still matters, whether it has converged, and the record's line. */
interface CouncilStanding {
  readonly contested: readonly Seat[];
  readonly converged: boolean;
  readonly summary: string;
}

function councilStanding(log: SessionLog, seats: readonly Seat[]): CouncilStanding {
  const records = debateRecords(log.snapshot);
  const present = presentSeats(log.snapshot, seats);
  const options = optionsOf(log);
  if (!options) {
    const standing = standingOf(records, present);
    return {
      contested: standing.contested,
      converged: standing.disagreements.length === 0,
      summary: standingSummary(standing, present),
    };
  }
  const vote = optionStanding(
    records,
    present.map(s => s.persona.name),
  );
  const contested = present.filter(s => vote.contested.includes(s.persona.name));
  // One voice is no agreement: a council that lost all but one seat answers from it, but does not call it settled.
  const enough = present.length >= Math.min(MIN_PANEL, seats.length);
  const settled = vote.settled && enough;
  return {
    contested: settled ? [] : contested.length > 0 ? contested : present,
    converged: settled,
    summary: combinedConfidence(vote, options, seats.length).text,
  };
}

/** Whether the last ended cycle was settled by agreeing first drafts (an `/extend` then seats everyone). */
function settledByFirstVote(log: SessionLog): boolean {
  const last = log.snapshot.context.discussions.at(-1);
  return last?.status === 'concluded' && last.settledByFirstVote === true;
}

/** The personas the next cycle seats: everyone still contested, trimmed to what the budget can pay. */
function nextSpeakers(standing: CouncilStanding, log: SessionLog, deps: CouncilDeps): readonly Seat[] {
  const cost = seatCost(deps, log.attached.length);
  const seats = councilSeats(log.snapshot, deps.personas);
  const present = presentSeats(log.snapshot, seats);
  // After agreeing first drafts, /extend asks for the debate anyway: everyone who drafted speaks.
  let wanted = settledByFirstVote(log) ? present : standing.contested;
  // A lone dissenter is answered by one voice of the majority (a debate cycle seats two at least).
  if (wanted.length === 1) {
    const majority = present.find(s => !wanted.some(w => w.participantId === s.participantId));
    if (majority) wanted = [...wanted, majority];
  }
  return wanted.slice(0, seatsForNextCycle(wanted.length, remainingRequests(deps), cost));
}

/**
 * Runs economy cycles until the personas agree, the cycle limit stops the debate, or the budget leaves no room for
 * another cycle and the answer (the council then concludes, and the answer says why). With the decision's options,
 * first drafts that all back one option with enough confidence end it at once: no debate cycle is paid for.
 * A seat whose request fails, or that the limit cannot pay for, is recorded as absent and the council goes on.
 */
export async function runEconomyDebate(log: SessionLog, deps: CouncilDeps, record: Recorder): Promise<void> {
  // What the session had spent when cycle 1 began: the re-forecast after the first vote counts from here.
  let debateStart: SpendTotals | undefined;
  while (log.state === 'debating') {
    throwIfCancelled(deps.token);
    const seats = councilSeats(log.snapshot, deps.personas);
    const cost = seatCost(deps, log.attached.length);
    if (!findCurrentDiscussion(log.snapshot.context)) {
      const first = log.snapshot.context.debateCycles === 0;
      // Nothing is spent on drafts unless the smallest council that can answer fits: its drafts and the answer.
      if (first) requireSmallestCouncil(Math.min(MIN_PANEL, seats.length), 0, deps, cost);
      if (first) debateStart = log.spent;
      const speakers = first ? seats : nextSpeakers(councilStanding(log, seats), log, deps);
      if (speakers.length === 0) {
        // The settings changed since the last cycle (a lower budget): nothing can be paid for.
        if (deps.governor) throw deps.governor.shortfall(2 + 1, 'another debate cycle and the answer');
        throw new Error('No persona could be seated for the next cycle.');
      }
      await openCycle(log, speakers, deps, record);
    }
    const discussion = findCurrentDiscussion(log.snapshot.context);
    if (!discussion) throw new Error('The debate cycle could not be started.');
    const cycle = discussion.cycleNumber;
    const limit = effectiveCycleLimit(log.snapshot);
    const absent: Absence[] = [];
    // In batches the limits pay for (each keeping the answer's request): what does not fit is absent, not refused mid-flight.
    for (;;) {
      const current = findCurrentDiscussion(log.snapshot.context) ?? discussion;
      const spoken = spokenPersonaIds(log.snapshot.context, current);
      const waiting = seats.filter(
        s =>
          discussion.participatingPersonaIds.includes(s.participantId) &&
          !spoken.has(s.participantId) &&
          !absent.some(a => a.seat === s),
      );
      if (waiting.length === 0) break;
      const fits = batchSize(waiting.length, deps, cost);
      if (fits === 0) {
        for (const seat of waiting)
          absent.push({ seat, reason: 'the spending limit left no room for its request and the answer' });
        break;
      }
      const batch = waiting.slice(0, fits);
      deps.output.progress(economyCycleProgress(cycle, limit, namesOf(batch)));
      const failures = await speakInCycle(batch, cycle, log, deps, record);
      throwIfCancelled(deps.token);
      // A failure every later request would meet too stops the turn (what succeeded is kept; Try again goes on).
      absent.push(...absencesOf(failures));
    }
    // Nobody spoke: there is nothing to conclude from; the first failure says why (Try again runs the cycle again).
    requireAContribution(log, absent, cycle, deps);
    const standing = councilStanding(log, seats);
    const records = debateRecords(log.snapshot);
    const converged = standing.converged;
    const firstVote = converged && cycle === 1 && optionsOf(log) !== undefined;
    // A vote nobody moved ends the debate: another cycle would repeat this one (and pay for it).
    const stableVote = !converged && cycle < limit && voteIsStable(records);
    const stoppedByBudget =
      !converged && !stableVote && cycle < limit && nextSpeakers(standing, log, deps).length === 0;
    await record({
      type: 'CYCLE_CONCLUDED',
      resolutionSummary: standing.summary,
      positions: cyclePositions(log, cycle),
      converged,
      ...(stoppedByBudget ? { stoppedByBudget: true as const } : {}),
      ...(stableVote ? { stoppedByStableVote: true as const } : {}),
      ...(firstVote ? { settledByFirstVote: true as const } : {}),
      ...absentField(absent),
      at: deps.clock.now(),
    });
    const concluded = debateRecords(log.snapshot).find(r => r.cycle === cycle);
    if (concluded) showVisibly(deps.output, cycleSummary(concluded, openPoints(standing, seats), converged));
    showAbsent(deps, absent, discussion.participatingPersonaIds.length);
    if (cycle === 1 && debateStart) {
      const apart = converged || stableVote || stoppedByBudget ? 0 : nextSpeakers(standing, log, deps).length;
      announceReforecast(log, deps, debateStart, apart, seats.length, apart, limit - cycle, cost);
    }
  }
}
