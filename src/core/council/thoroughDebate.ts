import { ModeratorPrompt } from './prompts/moderatorPrompt';
import { renderMessages } from '../llm/prompting/render';
import type { DebateCycleRecord } from './prompts/promptData';
import { CancellationScope } from '../llm/cancellationScope';
import { throwIfCancelled } from '../llm/languageModel';
import { requestStructured } from '../llm/structuredOutput';
import { findCurrentDiscussion, spokenPersonaIds } from '../session/queries';
import { effectiveCycleLimit } from '../session/selectors';
import { cycleAffordable, requireFirstCycle, seatCost } from './debatePlan';
import {
  absencesOf,
  absentField,
  cyclePositions,
  draftCycle,
  namesOf,
  openCycle,
  recordOutcomes,
  requireAContribution,
  showAbsent,
  speakInCycle,
  type Absence,
  type Outcome,
} from './debate';
import { combinedConfidence, optionStanding } from './optionVote';
import { cycleSummary, moderatorNote } from './wording/markdown';
import { moderatorReading, thoroughCycleProgress } from './wording/progressText';
import { announceReforecast } from './reforecast';
import type { SpendTotals } from '../llm/spending/ledger';
import { showVisibly, type CouncilDeps } from './ports';
import { CycleVerdictSchema, type CycleVerdict } from './prompts/replies';
import { verdictNormalizer } from './replyNormalizers';
import type { Recorder, SessionLog } from './sessionLog';
import { clarifiedRequest, councilSeats, debateRecords, presentSeats, type Seat } from './sessionFacts';

/*
 * The thorough protocol (`council.debate.protocol: thorough`): every persona speaks in every cycle, a
 * moderator request judges each cycle, and the next cycle is drafted while the moderator reads.
 * About personas × cycles + cycles + 2 requests.
 */

async function moderate(log: SessionLog, deps: CouncilDeps): Promise<CycleVerdict> {
  const snapshot = log.snapshot;
  const { messages } = await renderMessages(
    ModeratorPrompt,
    {
      ...clarifiedRequest(snapshot),
      personas: councilSeats(snapshot, deps.personas).map(s => s.persona),
      cycles: debateRecords(snapshot),
      maxCycles: effectiveCycleLimit(snapshot),
    },
    deps.model,
    deps.token,
  );
  return requestStructured(
    deps.model,
    {
      schema: CycleVerdictSchema,
      normalize: verdictNormalizer,
      onNormalized: changes => deps.onNormalized?.('moderate_cycle', changes),
      name: 'moderate_cycle',
      description: 'Record where the debate stands after the latest cycle.',
      messages,
    },
    deps.token,
  );
}

/** Whether every persona said it agrees with every other one in this cycle. */
function unanimous(record: DebateCycleRecord | undefined, seats: readonly Seat[]): boolean {
  if (!record || seats.length < 2) return false;
  const names = seats.map(s => s.persona.name.toLowerCase());
  return record.contributions.every(c => {
    const agreed = new Set(c.agreesWith.map(n => n.trim().toLowerCase()));
    return names.every(n => n === c.persona.toLowerCase() || agreed.has(n));
  });
}

/** Whether the seats drafted ahead are exactly the seats still to speak. */
function sameSeats(a: readonly Seat[], b: readonly Seat[]): boolean {
  return a.length === b.length && a.every(s => b.some(t => t.participantId === s.participantId));
}

/** Requests one thorough cycle may cost: every persona (with its look-ups), then the moderator. */
function cycleCost(seats: readonly Seat[], log: SessionLog, deps: CouncilDeps): number {
  return seats.length * seatCost(deps, log.attached.length) + 1;
}

/**
 * Runs debate cycles until the moderator finds convergence, the cycle limit stops the debate or the request
 * budget leaves no room for another cycle. While the moderator judges cycle N, cycle N+1's contributions are
 * already being drafted (they answer cycle N's contributions, which are final) when the budget can pay for
 * them; if the moderator stops the debate, that speculative work is cancelled and never shown or recorded.
 */
export async function runThoroughDebate(log: SessionLog, deps: CouncilDeps, record: Recorder): Promise<void> {
  let ahead:
    | {
        readonly cycle: number;
        readonly seats: readonly Seat[];
        readonly outcomes: Promise<Outcome[]>;
        readonly scope: CancellationScope;
      }
    | undefined;
  // Cancelled drafts are still paid for: wait until they settle, so the ledger holds them before the turn ends.
  const dropAhead = async () => {
    const dropped = ahead;
    ahead = undefined;
    dropped?.scope.cancel();
    await dropped?.outcomes.catch(() => undefined);
  };
  // What the session had spent when cycle 1 began: the re-forecast after the first verdict counts from here.
  let debateStart: SpendTotals | undefined;
  try {
    while (log.state === 'debating') {
      throwIfCancelled(deps.token);
      const council = councilSeats(log.snapshot, deps.personas);
      const first = log.snapshot.context.debateCycles === 0 && !findCurrentDiscussion(log.snapshot.context);
      if (first) requireFirstCycle(cycleCost(council, log, deps), deps);
      if (first) debateStart = log.spent;
      // After cycle 1, those who drafted speak in every cycle: a seat whose draft never arrived stays absent.
      const discussion = await openCycle(log, first ? council : presentSeats(log.snapshot, council), deps, record);
      const seats = council.filter(s => discussion.participatingPersonaIds.includes(s.participantId));
      const cycle = discussion.cycleNumber;
      const limit = effectiveCycleLimit(log.snapshot);
      const spoken = spokenPersonaIds(log.snapshot.context, discussion);
      const waiting = seats.filter(s => !spoken.has(s.participantId));
      // A seat whose own request failed is absent and the council goes on; a failure every later request would meet stops the turn.
      const absent: Absence[] = [];
      if (waiting.length > 0) {
        deps.output.progress(thoroughCycleProgress(cycle, limit, namesOf(waiting)));
        const failures =
          ahead?.cycle === cycle && sameSeats(ahead.seats, waiting)
            ? await recordOutcomes(await ahead.outcomes, deps, record)
            : await speakInCycle(waiting, cycle, log, deps, record);
        ahead = undefined;
        throwIfCancelled(deps.token);
        absent.push(...absencesOf(failures));
        requireAContribution(log, absent, cycle, deps);
      }
      // First drafts that all back one of the decision's options settle it: no moderator, no second cycle.
      if (cycle === 1 && (await settleByFirstVote(log, seats, absent, deps, record))) continue;
      // Draft the next cycle while the moderator reads this one, unless the personas already agree with each other
      // (then the moderator will very likely stop, and the drafts would be wasted) or the budget could not pay
      // for this cycle's verdict, the next cycle and the answer.
      const next = presentSeats(log.snapshot, council);
      const room = 1 + cycleCost(next, log, deps);
      if (
        cycle < limit &&
        !unanimous(
          debateRecords(log.snapshot).find(r => r.cycle === cycle),
          next,
        ) &&
        cycleAffordable(room, deps)
      ) {
        const scope = new CancellationScope(deps.token);
        ahead = { cycle: cycle + 1, seats: next, scope, outcomes: draftCycle(next, cycle + 1, log, deps, scope) };
      }
      deps.output.progress(moderatorReading(cycle));
      const verdict = await moderate(log, deps);
      const stoppedByBudget =
        !verdict.converged &&
        cycle < limit &&
        ahead === undefined &&
        !cycleAffordable(cycleCost(next, log, deps), deps);
      const summary =
        verdict.openDisagreements.length > 0
          ? `${verdict.resolutionSummary}\nStill open: ${verdict.openDisagreements.join(' ')}`
          : verdict.resolutionSummary;
      await record({
        type: 'CYCLE_CONCLUDED',
        resolutionSummary: summary,
        positions: cyclePositions(log, cycle),
        converged: verdict.converged,
        ...(stoppedByBudget ? { stoppedByBudget: true as const } : {}),
        ...absentField(absent),
        at: deps.clock.now(),
      });
      deps.output.markdown(moderatorNote(cycle, verdict.resolutionSummary, verdict.converged));
      // The full contributions stay in the folded steps; this compact line per cycle stays in sight.
      const concluded = debateRecords(log.snapshot).find(r => r.cycle === cycle);
      if (concluded) showVisibly(deps.output, cycleSummary(concluded, verdict.openDisagreements, verdict.converged));
      showAbsent(deps, absent, seats.length);
      if (cycle === 1 && debateStart) {
        const apart = verdict.converged || stoppedByBudget ? 0 : next.length;
        const cost = seatCost(deps, log.attached.length);
        announceReforecast(log, deps, debateStart, apart, council.length, next.length, limit - cycle, cost);
      }
      if (log.state !== 'debating') await dropAhead();
    }
  } finally {
    await dropAhead();
  }
}

/**
 * Concludes cycle 1 without the moderator when every first draft backs one of the decision's options with high or
 * medium confidence (and at least two drafted); returns whether it did. As in the economy protocol.
 */
async function settleByFirstVote(
  log: SessionLog,
  seats: readonly Seat[],
  absent: readonly Absence[],
  deps: CouncilDeps,
  record: Recorder,
): Promise<boolean> {
  const options = log.snapshot.context.selection?.options;
  if (!options || options.length === 0) return false;
  // Those who drafted vote; an absent seat weighs nothing in the combined confidence (as in the economy protocol).
  const vote = optionStanding(
    debateRecords(log.snapshot),
    seats.filter(s => !absent.some(a => a.seat === s)).map(s => s.persona.name),
  );
  if (!vote.settled || vote.ballots.length < Math.min(2, seats.length)) return false;
  await record({
    type: 'CYCLE_CONCLUDED',
    resolutionSummary: combinedConfidence(vote, options, seats.length).text,
    positions: cyclePositions(log, 1),
    converged: true,
    settledByFirstVote: true,
    ...absentField(absent),
    at: deps.clock.now(),
  });
  const concluded = debateRecords(log.snapshot).find(r => r.cycle === 1);
  if (concluded) showVisibly(deps.output, cycleSummary(concluded, [], true));
  showAbsent(deps, absent, seats.length);
  return true;
}
