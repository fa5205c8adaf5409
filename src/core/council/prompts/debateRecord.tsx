import { TextChunk } from '@vscode/prompt-tsx';
import { dataBlock } from '../../llm/prompting/dataBlock';
import type { AttributedContribution, DebateCycleRecord } from './promptData';

/**
 * Pruning priorities inside the debate-record message: the latest cycle's positions outlast
 * everything, then its full arguments, then older cycles' digests (newest first), then older
 * full arguments (newest first). Each piece is pruned whole, never cut mid-text.
 */
const RECORD_PRIORITY = {
  latestPositions: 10_000,
  latestArguments: 9_000,
  olderDigests: 8_000,
  olderArguments: 4_000,
} as const;

/** Room between cycles' argument priorities: more personas than this would overlap the next cycle. */
const PRIORITY_STEP_PER_CYCLE = 100;

/** A whole piece of the debate record and how long it survives pruning (higher = longer). */
export interface RecordPiece {
  readonly text: string;
  readonly priority: number;
  /** The contribution whose full argument this piece carries, if any. */
  readonly contribution?: { readonly persona: string; readonly cycle: number };
}

function positionLine(c: AttributedContribution, detailed: boolean): string {
  let line = `- ${c.persona}: ${c.position}`;
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
    const base =
      age === 0 ? RECORD_PRIORITY.latestArguments : RECORD_PRIORITY.olderArguments - age * PRIORITY_STEP_PER_CYCLE;
    // Condensed: the speaker read older cycles and wrote its own arguments; their positions are enough.
    const shown = condensed
      ? age === 0
        ? record.contributions.filter(c => c.persona !== speaker)
        : []
      : record.contributions;
    const args = shown.map(c => ({
      text: argumentBlock(c, record.cycle),
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
