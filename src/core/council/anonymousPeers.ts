import type { AttributedContribution, DebateCycleRecord } from './prompts/promptData';
import { OWN_LABEL } from './prompts/replies';

/*
 * Anonymous peers: from cycle 2 on a persona reads its colleagues' positions as "Position A", "Position B"…
 * without their names, so the argument decides, not who made it (debate research: identity markers feed
 * conformity and sycophancy). The speaker's own contributions read as "You". The transcript keeps the names;
 * the labels exist only inside one prompt and its reply, and the reply is mapped back to names.
 */

/** The labels one speaker sees for its colleagues, both ways. */
export interface PeerLabels {
  /** In council order: "Position A", "Position B"… */
  readonly labels: readonly string[];
  labelOf(name: string): string | undefined;
  nameOf(label: string): string | undefined;
}

/** Labels for `colleagues` (council order, the speaker excluded). */
export function peerLabels(colleagues: readonly string[]): PeerLabels {
  const labels = colleagues.map((_, index) => `Position ${String.fromCharCode(65 + index)}`);
  const byName = new Map(colleagues.map((name, index) => [name.toLowerCase(), labels[index]!]));
  const byLabel = new Map(labels.map((label, index) => [label.toLowerCase(), colleagues[index]!]));
  return {
    labels,
    labelOf: name => byName.get(name.trim().toLowerCase()),
    nameOf: label => byLabel.get(label.trim().toLowerCase()),
  };
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The debate record as `speaker` reads it: every colleague's name replaced by its label (in who spoke, whom they
 * agreed with, whom they voted for, and wherever a name appears in their text), the speaker's own as "You".
 */
export function anonymizedCycles(
  cycles: readonly DebateCycleRecord[],
  speaker: string,
  labels: PeerLabels,
  colleagues: readonly string[],
): DebateCycleRecord[] {
  // Longest names first, so "Security Expert Lead" is not half-replaced by "Security Expert".
  const names = [speaker, ...colleagues].sort((a, b) => b.length - a.length);
  const pattern = names.length > 0 ? new RegExp(`\\b(${names.map(escaped).join('|')})\\b`, 'g') : undefined;
  const label = (name: string) => (name === speaker ? OWN_LABEL : (labels.labelOf(name) ?? name));
  const text = (value: string) => (pattern ? value.replace(pattern, name => label(name)) : value);
  const contribution = (c: AttributedContribution): AttributedContribution => ({
    ...c,
    persona: label(c.persona),
    position: text(c.position),
    argument: text(c.argument),
    keyPoints: c.keyPoints.map(text),
    concerns: c.concerns.map(text),
    agreesWith: c.agreesWith.map(label),
    ...(c.changeReason === undefined ? {} : { changeReason: text(c.changeReason) }),
    ...(c.vote === undefined ? {} : { vote: label(c.vote) }),
  });
  return cycles.map(record => ({
    ...record,
    contributions: record.contributions.map(contribution),
    ...(record.resolutionSummary === undefined ? {} : { resolutionSummary: text(record.resolutionSummary) }),
    ...(record.openDisagreements === undefined ? {} : { openDisagreements: record.openDisagreements.map(text) }),
  }));
}
