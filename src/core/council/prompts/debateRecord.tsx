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

function positionLine(c: AttributedContribution, detailed: boolean): string {
  let line = `- ${c.persona}: ${c.position}${c.option ? ` [backs option ${c.option}${c.confidence ? `, ${c.confidence} confidence` : ''}]` : ''}`;
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

/**
 * A colleague's contribution as later cycles read it: the position and the points it rests on, not the whole
 * argument (a persona answers the points; the argument's prose cost ~4x the tokens for the same substance).
 */
function pointsBlock(c: AttributedContribution, cycle: number): string {
  return dataBlock('contribution', `Position: ${c.position}\nKey points:\n${keyPointsText(c)}`, {
    persona: c.persona,
    cycle,
  });
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
 * Plans the debate record for a prompt, in chronological order. `speaker`'s own arguments
 * are kept longer than others' within the same cycle.
 */
function planDebateRecord(
  cycles: readonly DebateCycleRecord[],
  speaker?: string,
  condensed = false,
): readonly RecordPiece[] {
  const latest = cycles.length - 1;
  return cycles.flatMap((record, index): RecordPiece[] => {
    const age = latest - index;
    const rank = ranked(record.contributions, speaker);
    const summary: RecordPiece = {
      text: cycleSummary(record, age === 0),
      priority: age === 0 ? RECORD_PRIORITY.latestPositions : RECORD_PRIORITY.olderDigests - age,
    };
    const base = RECORD_PRIORITY.latestArguments;
    // Condensed: the speaker read older cycles and wrote its own arguments; their positions are enough. Of the
    // latest cycle, only the colleagues still apart from the speaker (backing another option) send their points:
    // an ally's position line says where it stands, and the speaker answers those it has to persuade.
    const own = record.contributions.find(c => c.persona === speaker)?.option;
    const apart = (c: AttributedContribution) => c.persona !== speaker && (own === undefined || c.option !== own);
    // Full (thorough): every argument of the latest cycle, the speaker's own included; older cycles as their
    // digests only, which each persona has read in full before (sending every earlier draft again grew a
    // cycle-4 prompt to ~4x a cycle-1 one).
    const shown = age > 0 ? [] : condensed ? record.contributions.filter(apart) : record.contributions;
    const args = shown.map(c => ({
      text: condensed ? pointsBlock(c, record.cycle) : argumentBlock(c, record.cycle),
      priority: base - (rank.get(c) ?? 0),
      contribution: { persona: c.persona, cycle: record.cycle },
    }));
    return [summary, ...args];
  });
}

/** The debate record as prunable chunks for one UserMessage. */
export function debateRecordChunks(
  cycles: readonly DebateCycleRecord[],
  speaker?: string,
  condensed = false,
): readonly unknown[] {
  return planDebateRecord(cycles, speaker, condensed).map(piece => (
    <TextChunk priority={piece.priority}>{piece.text}</TextChunk>
  ));
}

/**
 * Where each persona stands at the end of the debate, for the synthesis: its last position (and how it got
 * there), the points it rests on and the concerns it still has, verbatim, so a minority's decisive facts reach
 * the answer; then the last cycle's summary. Not the transcripts: the answer is written from positions and facts.
 */
export function councilStandingChunks(cycles: readonly DebateCycleRecord[]): readonly unknown[] {
  const latest = cycles.at(-1);
  if (!latest) return [];
  const byPersona = new Map<string, { cycle: number; contribution: AttributedContribution }[]>();
  for (const record of cycles)
    for (const contribution of record.contributions)
      byPersona.set(contribution.persona, [
        ...(byPersona.get(contribution.persona) ?? []),
        { cycle: record.cycle, contribution },
      ]);
  const standings = [...byPersona.entries()].map(([persona, said]) => {
    const last = said.at(-1)!;
    const c = last.contribution;
    const earlier = said
      .slice(0, -1)
      .map(({ cycle, contribution }) => `cycle ${cycle}: ${contribution.position}`)
      .join('; ');
    const lines = [
      `Final position (cycle ${last.cycle}): ${c.position}`,
      ...(c.changedPosition && c.changeReason ? [`Changed position because: ${c.changeReason}`] : []),
      ...(earlier ? [`Earlier: ${earlier}`] : []),
      `Key points:\n${keyPointsText(c)}`,
      ...(c.concerns.length > 0 ? [`Concerns:\n${c.concerns.map(concern => `- ${concern}`).join('\n')}`] : []),
      ...(c.agreesWith.length > 0 ? [`Agrees with: ${c.agreesWith.join(', ')}`] : []),
    ];
    return <TextChunk priority={9_000}>{dataBlock('standing', lines.join('\n'), { persona })}</TextChunk>;
  });
  const summary = <TextChunk priority={10_000}>{cycleSummary(latest, false)}</TextChunk>;
  return [summary, ...standings];
}
