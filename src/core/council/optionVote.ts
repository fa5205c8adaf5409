import { OTHER_OPTION, type DecisionOption } from '../session/decisionOptions';
import type { Confidence } from './prompts/replies';
import type { DebateCycleRecord } from './prompts/promptData';

/*
 * The vote on the decision's options. Each contribution backs one option with a confidence; a persona keeps its
 * latest ballot when it does not speak again. First drafts that all back one option with high or medium confidence
 * settle the decision without a debate (debate research: a vote over independent answers explains most of debate's
 * gain; debating only when first answers split or hesitate saves most of the tokens). The combined confidence weighs
 * every ballot, so a unanimous but unsure council reads as such.
 */

/** One persona's latest option ballot. */
export interface OptionBallot {
  readonly voter: string;
  /** An option's label, or OTHER_OPTION. */
  readonly option: string;
  readonly confidence?: Confidence;
  readonly cycle: number;
}

/** The standing of the option vote among the personas who have spoken. */
export interface OptionStanding {
  readonly ballots: readonly OptionBallot[];
  /** The option with the most ballots (never OTHER_OPTION); undefined on a tie or with no ballot for a named option. */
  readonly leading?: string;
  /** Every ballot backs the leading option and none has low confidence. */
  readonly settled: boolean;
  /** Voters who matter for another cycle: not backing the leading option, or backing it with low confidence. */
  readonly contested: readonly string[];
}

/** Each persona's latest option ballot after `records`. */
function optionBallots(records: readonly DebateCycleRecord[]): OptionBallot[] {
  const latest = new Map<string, OptionBallot>();
  for (const record of records)
    for (const c of record.contributions)
      if (c.option !== undefined)
        latest.set(c.persona, {
          voter: c.persona,
          option: c.option,
          ...(c.confidence === undefined ? {} : { confidence: c.confidence }),
          cycle: record.cycle,
        });
  return [...latest.values()];
}

/** Where the option vote stands; `voters` limits it to these personas (the council's seats), in their order. */
export function optionStanding(records: readonly DebateCycleRecord[], voters?: readonly string[]): OptionStanding {
  const all = optionBallots(records);
  const ballots = voters ? voters.flatMap(v => all.filter(b => b.voter === v)) : all;
  const counts = new Map<string, number>();
  for (const b of ballots) if (b.option !== OTHER_OPTION) counts.set(b.option, (counts.get(b.option) ?? 0) + 1);
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const tied = sorted.length > 1 && sorted[0]![1] === sorted[1]![1];
  const leading = tied ? undefined : sorted[0]?.[0];
  const contested =
    leading === undefined
      ? ballots.map(b => b.voter)
      : ballots.filter(b => b.option !== leading || b.confidence === 'low').map(b => b.voter);
  return {
    ballots,
    ...(leading === undefined ? {} : { leading }),
    settled: ballots.length > 0 && leading !== undefined && contested.length === 0,
    contested,
  };
}

/** How strongly the council backs its leading option. */
export type AgreementLevel = 'strong' | 'moderate' | 'weak' | 'split';

/** The combined confidence: the level and the sentence that states it. */
export interface CombinedConfidence {
  readonly level: AgreementLevel;
  /** e.g. "Strong agreement: 4 of 4 back B (Redis sessions), high confidence." */
  readonly text: string;
}

const WEIGHT: Record<Confidence, number> = { high: 1, medium: 0.6, low: 0.25 };

function confidenceWords(ballots: readonly OptionBallot[]): string {
  const levels = ballots.map(b => b.confidence ?? 'medium');
  const distinct = [...new Set(levels)];
  if (distinct.length === 1) return `${distinct[0]} confidence`;
  const count = (level: Confidence) => levels.filter(l => l === level).length;
  return `mixed confidence (${(['high', 'medium', 'low'] as const)
    .filter(l => count(l) > 0)
    .map(l => `${count(l)} ${l}`)
    .join(', ')})`;
}

/**
 * The council's combined confidence in its leading option: each ballot weighs by its confidence (high 1, medium 0.6,
 * low 0.25), a persona without a ballot (its request failed) weighs 0, over the whole council of `councilSize`.
 * Strong: at least 0.8 of the council's weight and no dissent; moderate: at least 0.5; weak: below; split: no
 * option leads.
 */
export function combinedConfidence(
  standing: OptionStanding,
  options: readonly DecisionOption[],
  councilSize: number,
): CombinedConfidence {
  const name = (label: string) => {
    const option = options.find(o => o.label === label);
    return option ? `option ${label} (${option.option})` : `option ${label}`;
  };
  const size = Math.max(councilSize, standing.ballots.length);
  if (standing.leading === undefined) {
    const groups = new Map<string, number>();
    for (const b of standing.ballots) groups.set(b.option, (groups.get(b.option) ?? 0) + 1);
    const parts = [...groups.entries()].map(
      ([option, n]) => `${n} back${n === 1 ? 's' : ''} ${option === OTHER_OPTION ? OTHER_OPTION : `option ${option}`}`,
    );
    return { level: 'split', text: `Split: ${parts.join(', ') || 'no persona backed an option'}; no option leads.` };
  }
  const backers = standing.ballots.filter(b => b.option === standing.leading);
  const others = standing.ballots.filter(b => b.option !== standing.leading);
  const score = backers.reduce((sum, b) => sum + WEIGHT[b.confidence ?? 'medium'], 0) / size;
  const level: AgreementLevel = score >= 0.8 && others.length === 0 ? 'strong' : score >= 0.5 ? 'moderate' : 'weak';
  const head = { strong: 'Strong agreement', moderate: 'Moderate agreement', weak: 'Weak agreement' }[level];
  const rest =
    others.length === 0
      ? ''
      : `; ${others.length} back${others.length === 1 ? 's' : ''} ${[...new Set(others.map(o => (o.option === OTHER_OPTION ? OTHER_OPTION : `option ${o.option}`)))].join(' or ')}`;
  return {
    level,
    text: `${head}: ${backers.length} of ${size} back ${name(standing.leading)}, ${confidenceWords(backers)}${rest}.`,
  };
}

/** The option vote of a session, from its records, when its opening named options and someone backed one. */
export function sessionOptionVote(
  records: readonly DebateCycleRecord[],
  options: readonly DecisionOption[] | undefined,
  voters: readonly string[],
): { readonly standing: OptionStanding; readonly options: readonly DecisionOption[] } | undefined {
  if (!options || options.length === 0) return undefined;
  const standing = optionStanding(records, voters);
  return standing.ballots.length === 0 ? undefined : { standing, options };
}

function optionName(label: string, options: readonly DecisionOption[]): string {
  if (label === OTHER_OPTION) return OTHER_OPTION;
  const option = options.find(o => o.label === label);
  return option ? `option ${label} (${option.option})` : `option ${label}`;
}

/** The option vote as lines: each option with its voters and their confidence (most first), then who dissents. */
export function optionVoteLines(vote: {
  readonly standing: OptionStanding;
  readonly options: readonly DecisionOption[];
}): {
  readonly rows: readonly { readonly option: string; readonly voters: readonly string[] }[];
  readonly dissent: readonly string[];
} {
  const { standing, options } = vote;
  const groups = new Map<string, string[]>();
  for (const b of standing.ballots)
    groups.set(b.option, [...(groups.get(b.option) ?? []), `${b.voter} (${b.confidence ?? 'not stated'})`]);
  const rows = [...groups.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([label, voters]) => ({ option: optionName(label, options), voters }));
  const dissent = standing.ballots
    .filter(b => b.option !== standing.leading)
    .map(b => `${b.voter} (${optionName(b.option, options)}, ${b.confidence ?? 'not stated'})`);
  return { rows, dissent };
}
