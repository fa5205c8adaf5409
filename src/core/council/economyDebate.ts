import type { DebateCycleRecord } from './prompts/promptData';
import { throwIfCancelled } from '../llm/languageModel';
import { findCurrentDiscussion, spokenPersonaIds } from '../session/queries';
import { effectiveCycleLimit } from '../session/selectors';
import { cyclePositions, namesOf, openCycle, speakInCycle } from './debate';
import { remainingRequests, requireFirstCycle, seatCost, seatsForNextCycle } from './debatePlan';
import { cycleSummary } from './wording/markdown';
import { economyCycleProgress } from './wording/progressText';
import { showVisibly, type CouncilDeps } from './ports';
import type { Recorder, SessionLog } from './sessionLog';
import { councilSeats, debateRecords, type Seat } from './sessionFacts';
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
function openPoints(standing: Standing, seats: readonly Seat[]): string[] {
  const names = standing.contested.map(s => s.persona.name);
  return names.length === 0
    ? []
    : [`${names.length === seats.length ? 'all' : `${names.length} of ${seats.length}`} (${names.join(', ')}).`];
}

/** The personas the next cycle seats: everyone still contested, trimmed to what the budget can pay. */
function nextSpeakers(standing: Standing, log: SessionLog, deps: CouncilDeps): readonly Seat[] {
  const cost = seatCost(deps, log.attached.length);
  return standing.contested.slice(0, seatsForNextCycle(standing.contested.length, remainingRequests(deps), cost));
}

/**
 * Runs economy cycles until the personas agree, the cycle limit stops the debate, or the request budget
 * leaves no room for two personas to speak again (the council then concludes, and the answer says why).
 */
export async function runEconomyDebate(log: SessionLog, deps: CouncilDeps, record: Recorder): Promise<void> {
  while (log.state === 'debating') {
    throwIfCancelled(deps.token);
    const seats = councilSeats(log.snapshot, deps.personas);
    if (!findCurrentDiscussion(log.snapshot.context)) {
      const first = log.snapshot.context.debateCycles === 0;
      if (first) requireFirstCycle(seats.length * seatCost(deps, log.attached.length), deps);
      const speakers = first ? seats : nextSpeakers(standingOf(debateRecords(log.snapshot), seats), log, deps);
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
    const spoken = spokenPersonaIds(log.snapshot.context, discussion);
    const waiting = seats.filter(
      s => discussion.participatingPersonaIds.includes(s.participantId) && !spoken.has(s.participantId),
    );
    if (waiting.length > 0) {
      deps.output.progress(economyCycleProgress(cycle, limit, namesOf(waiting)));
      await speakInCycle(waiting, cycle, log, deps, record);
    }
    const records = debateRecords(log.snapshot);
    const standing = standingOf(records, seats);
    const converged = standing.disagreements.length === 0;
    // A vote nobody moved ends the debate: another cycle would repeat this one (and pay for it).
    const stableVote = !converged && cycle < limit && voteIsStable(records);
    const stoppedByBudget =
      !converged && !stableVote && cycle < limit && nextSpeakers(standing, log, deps).length === 0;
    await record({
      type: 'CYCLE_CONCLUDED',
      resolutionSummary: standingSummary(standing, seats),
      positions: cyclePositions(log, cycle),
      converged,
      ...(stoppedByBudget ? { stoppedByBudget: true as const } : {}),
      ...(stableVote ? { stoppedByStableVote: true as const } : {}),
      at: deps.clock.now(),
    });
    const concluded = debateRecords(log.snapshot).find(r => r.cycle === cycle);
    if (concluded) showVisibly(deps.output, cycleSummary(concluded, openPoints(standing, seats), converged));
  }
}
