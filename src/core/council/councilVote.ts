import type { DebateCycleRecord } from './prompts/promptData';
import type { Confidence } from './prompts/replies';

/*
 * The council's vote. From cycle 2 each contribution backs one position (its own or a colleague's) with a stated
 * confidence; a persona keeps its last ballot when it does not speak again, and a first draft backs itself. The
 * tally is what the answer and the agent tool report; a vote that did not move in a cycle ends the debate (debate
 * research: more rounds after the vote settles add conformity, not accuracy).
 */

/** One persona's standing ballot: whose position it backs, since which cycle. */
export interface Ballot {
  readonly voter: string;
  /** The persona whose position it backs (itself included). */
  readonly backs: string;
  readonly confidence?: Confidence;
  readonly cycle: number;
  /** Whose positions the voter said it agrees with (names). */
  readonly agrees: readonly string[];
}

/**
 * The positions with votes, most first; `dissent`: who neither backs the leading position nor agrees with it
 * (a persona that votes for an equivalent position it agrees with is not dissenting).
 */
export interface VoteTally {
  readonly ballots: readonly Ballot[];
  readonly counts: readonly {
    readonly holder: string;
    /** The holder's latest position. */
    readonly position: string;
    readonly voters: readonly string[];
  }[];
  /** The position with the most votes; undefined on a tie for the most. */
  readonly leader?: string;
  readonly dissent: readonly string[];
}

/** Each persona's latest ballot after `records` (first drafts back themselves). */
function ballots(records: readonly DebateCycleRecord[]): Map<string, Ballot> {
  const latest = new Map<string, Ballot>();
  for (const record of records)
    for (const c of record.contributions)
      latest.set(c.persona, {
        voter: c.persona,
        backs: c.vote ?? c.persona,
        ...(c.confidence === undefined ? {} : { confidence: c.confidence }),
        cycle: record.cycle,
        agrees: c.agreesWith,
      });
  return latest;
}

/** The tally after the debate; undefined before anyone voted (a first cycle only, or a session from before votes). */
export function voteTally(records: readonly DebateCycleRecord[]): VoteTally | undefined {
  if (!records.some(r => r.contributions.some(c => c.vote !== undefined))) return undefined;
  const all = [...ballots(records).values()];
  const positions = new Map(records.flatMap(r => r.contributions.map(c => [c.persona, c.position] as const)));
  const byHolder = new Map<string, string[]>();
  for (const ballot of all) byHolder.set(ballot.backs, [...(byHolder.get(ballot.backs) ?? []), ballot.voter]);
  const counts = [...byHolder.entries()]
    .map(([holder, voters]) => ({ holder, position: positions.get(holder) ?? '', voters }))
    .sort((a, b) => b.voters.length - a.voters.length);
  const tied = counts.length > 1 && counts[0]!.voters.length === counts[1]!.voters.length;
  const leader = tied ? undefined : counts[0]?.holder;
  const dissent =
    leader === undefined
      ? []
      : all.filter(b => b.backs !== leader && b.voter !== leader && !b.agrees.includes(leader)).map(b => b.voter);
  return { ballots: all, counts, ...(leader === undefined ? {} : { leader }), dissent };
}

/**
 * Whether the last cycle left the vote where it was: every persona who spoke kept its ballot (a first vote counts
 * as moving only when it backs someone else) and its position. Needs a cycle with votes (cycle 2 or later).
 */
export function voteIsStable(records: readonly DebateCycleRecord[]): boolean {
  const last = records.at(-1);
  if (!last || last.contributions.length === 0 || last.contributions.some(c => c.vote === undefined)) return false;
  const before = ballots(records.slice(0, -1));
  return last.contributions.every(c => !c.changedPosition && (before.get(c.persona)?.backs ?? c.persona) === c.vote);
}
