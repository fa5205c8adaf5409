import { TextChunk } from '@vscode/prompt-tsx';
import { dataBlock } from '../../llm/prompting/dataBlock';
import type { AttributedContribution, DebateCycleRecord } from './promptData';

/**
 * Pruning priorities inside the debate-record message: the latest cycle's positions outlast
 * everything, then its full arguments, then older cycles' digests (newest first). Each piece is pruned whole,
 * never cut mid-text.
 */
const RECORD_PRIORITY = {
  latestPositions: 10_000,
  latestArguments: 9_000,
  olderDigests: 8_000,
} as const;

/** A whole piece of the debate record and how long it survives pruning (higher = longer). */
export interface RecordPiece {
  readonly text: string;
  readonly priority: number;
  /** The contribution whose full argument this piece carries, if any. */
  readonly contribution?: { readonly persona: string; readonly cycle: number };
}

/** One persona's position as a record line; `from` names the cycle it is from when that is not the record's latest. */
function positionLine(c: AttributedContribution, detailed: boolean, from?: number): string {
  let line = `- ${c.persona}${from === undefined ? '' : ` (cycle ${from})`}: ${c.position}${c.option ? ` [backs option ${c.option}${c.confidence ? `, ${c.confidence} confidence` : ''}]` : ''}`;
  if (c.changedPosition) line += ` (changed position${c.changeReason ? `: ${c.changeReason}` : ''})`;
  if (detailed && c.agreesWith.length > 0) line += `\n  Agrees with: ${c.agreesWith.join(', ')}`;
  if (detailed && c.concerns.length > 0) line += `\n  Concerns: ${c.concerns.join(' | ')}`;
  return line;
}

function cycleSummary(record: DebateCycleRecord, detailed: boolean): string {
  const parts: string[] = [];
  if (record.resolutionSummary) parts.push(`Summary of the cycle: ${record.resolutionSummary}`);
  if (record.openDisagreements && record.openDisagreements.length > 0) {
    parts.push(`Open disagreements:\n${record.openDisagreements.map(d => `- ${d}`).join('\n')}`);
  }
  parts.push(`Positions:\n${record.contributions.map(c => positionLine(c, detailed)).join('\n')}`);
  return dataBlock('cycle', parts.join('\n'), { number: record.cycle });
}

function argumentBlock(c: AttributedContribution, cycle: number): string {
  return dataBlock('contribution', `Position: ${c.position}\n\n${c.argument}`, { persona: c.persona, cycle });
}

/** The facts and reasons a contribution rests on, as a list (a session recorded before key points: the argument). */
function keyPointsText(c: AttributedContribution): string {
  return c.keyPoints.length > 0 ? c.keyPoints.map(point => `- ${point}`).join('\n') : c.argument;
}

/** Own contribution first, then the others in council order: the rank used to order priorities. */
function ranked(
  contributions: readonly AttributedContribution[],
  speaker: string | undefined,
): Map<AttributedContribution, number> {
  const own = contributions.filter(c => c.persona === speaker);
  const others = contributions.filter(c => c.persona !== speaker);
  return new Map([...own, ...others].map((c, index) => [c, index]));
}

/**
 * Plans the full debate record for a prompt (the thorough protocol), in chronological order: every argument of the
 * latest cycle, the speaker's own included (kept longer than others'); older cycles as their digests only, which each
 * persona has read in full before (sending every earlier draft again grew a cycle-4 prompt to ~4x a cycle-1 one).
 */
function planDebateRecord(cycles: readonly DebateCycleRecord[], speaker?: string): readonly RecordPiece[] {
  const latest = cycles.length - 1;
  return cycles.flatMap((record, index): RecordPiece[] => {
    const age = latest - index;
    const rank = ranked(record.contributions, speaker);
    const summary: RecordPiece = {
      text: cycleSummary(record, age === 0),
      priority: age === 0 ? RECORD_PRIORITY.latestPositions : RECORD_PRIORITY.olderDigests - age,
    };
    const shown = age > 0 ? [] : record.contributions;
    const args = shown.map(c => ({
      text: argumentBlock(c, record.cycle),
      priority: RECORD_PRIORITY.latestArguments - (rank.get(c) ?? 0),
      contribution: { persona: c.persona, cycle: record.cycle },
    }));
    return [summary, ...args];
  });
}

/** Each persona's latest contribution and the cycle it is from, in the order they first spoke. */
function latestContributions(
  cycles: readonly DebateCycleRecord[],
): readonly { readonly cycle: number; readonly contribution: AttributedContribution }[] {
  const latest = new Map<string, { cycle: number; contribution: AttributedContribution }>();
  for (const record of cycles)
    for (const contribution of record.contributions)
      latest.set(contribution.persona, { cycle: record.cycle, contribution });
  return [...latest.values()];
}

/** A colleague still apart, as the speaker answers it: the points and concerns its position rests on. */
function apartBlock(c: AttributedContribution, cycle: number): string {
  const concerns = c.concerns.length > 0 ? `\nConcerns:\n${c.concerns.map(concern => `- ${concern}`).join('\n')}` : '';
  return dataBlock('contribution', `Key points:\n${keyPointsText(c)}${concerns}`, { persona: c.persona, cycle });
}

/** The speaker's own contribution without its change note: it wrote why it moved itself. */
function unchangedIfOwn(c: AttributedContribution, speaker: string | undefined): AttributedContribution {
  return c.persona === speaker ? { ...c, changedPosition: false } : c;
}

/**
 * Plans the condensed debate record (the economy protocol): where the council stands now, not how it got there.
 * Each persona's latest position once (the speaker's own included, so it knows what it holds), the latest cycle's
 * summary unless every line already shows the option it backs, and the points and concerns of the colleagues still
 * apart from the speaker (backing another option, or every colleague without options): those it has to persuade or
 * concede to. Older cycles' positions and the allies' points are not resent: every cycle repeated them, and a later
 * cycle answers where the others stand now.
 */
function planStanding(cycles: readonly DebateCycleRecord[], speaker?: string): readonly RecordPiece[] {
  const last = cycles.at(-1);
  if (!last) return [];
  const standing = latestContributions(cycles);
  const own = standing.find(s => s.contribution.persona === speaker)?.contribution.option;
  const apart = standing.filter(
    ({ contribution: c }) => c.persona !== speaker && (own === undefined || c.option !== own),
  );
  const parts: string[] = [];
  // With the decision's options every line says which one it backs: the vote's summary would say it again.
  const backed = standing.every(s => s.contribution.option !== undefined);
  if (last.resolutionSummary && !backed) parts.push(`Summary of cycle ${last.cycle}: ${last.resolutionSummary}`);
  if (last.openDisagreements && last.openDisagreements.length > 0)
    parts.push(`Open disagreements:\n${last.openDisagreements.map(d => `- ${d}`).join('\n')}`);
  parts.push(
    `Positions:\n${standing.map(({ cycle, contribution }) => positionLine(unchangedIfOwn(contribution, speaker), false, cycle === last.cycle ? undefined : cycle)).join('\n')}`,
  );
  const positions: RecordPiece = {
    text: dataBlock('cycle', parts.join('\n'), { number: last.cycle }),
    priority: RECORD_PRIORITY.latestPositions,
  };
  const rank = ranked(
    apart.map(a => a.contribution),
    speaker,
  );
  const points = apart.map(({ cycle, contribution }) => ({
    text: apartBlock(contribution, cycle),
    priority: RECORD_PRIORITY.latestArguments - (rank.get(contribution) ?? 0),
    contribution: { persona: contribution.persona, cycle },
  }));
  return [positions, ...points];
}

/** The debate record as prunable chunks for one UserMessage. */
export function debateRecordChunks(
  cycles: readonly DebateCycleRecord[],
  speaker?: string,
  condensed = false,
): readonly unknown[] {
  const plan = condensed ? planStanding(cycles, speaker) : planDebateRecord(cycles, speaker);
  return plan.map(piece => <TextChunk priority={piece.priority}>{piece.text}</TextChunk>);
}

/**
 * Where each persona stands at the end of the debate, for the synthesis: its last position (and why it changed, if
 * it did), the points it rests on and the concerns it still has, verbatim, so a minority's decisive facts reach the
 * answer; then the last cycle's summary. Not the transcripts, nor the positions since replaced: the answer is
 * written from where the council landed.
 */
export function councilStandingChunks(cycles: readonly DebateCycleRecord[]): readonly unknown[] {
  const latest = cycles.at(-1);
  if (!latest) return [];
  const standings = latestContributions(cycles).map(({ cycle, contribution: c }) => {
    const lines = [
      `Final position (cycle ${cycle}): ${c.position}`,
      ...(c.changedPosition && c.changeReason ? [`Changed position because: ${c.changeReason}`] : []),
      `Key points:\n${keyPointsText(c)}`,
      ...(c.concerns.length > 0 ? [`Concerns:\n${c.concerns.map(concern => `- ${concern}`).join('\n')}`] : []),
      ...(c.agreesWith.length > 0 ? [`Agrees with: ${c.agreesWith.join(', ')}`] : []),
    ];
    return <TextChunk priority={9_000}>{dataBlock('standing', lines.join('\n'), { persona: c.persona })}</TextChunk>;
  });
  const summary = <TextChunk priority={10_000}>{cycleSummary(latest, false)}</TextChunk>;
  return [summary, ...standings];
}
