import type {
  AttributedContribution,
  DebateCycleRecord,
  PersonaVoice,
} from '../../../../../src/core/council/prompts/promptData';

/** Six personas, as the prompts receive them. */
export const PERSONAS: readonly PersonaVoice[] = ['Ana', 'Bo', 'Cy', 'Di', 'Ed', 'Fay'].map(name => ({
  name,
  role: `${name} guards one concern of the design.`,
  expertise: ['systems', `${name.toLowerCase()}-things`],
  instructions: `Argue like ${name}: evidence first.`,
  tone: 'direct and precise',
  cognitiveMode: name === 'Bo' ? 'divergent' : 'convergent',
}));

/** ~`count` words of filler, unique to `tag`, shaped like prose. */
export function prose(count: number, tag: string): string {
  return Array.from({ length: count }, (_, i) => (i % 12 === 11 ? `${tag}${i}.` : `${tag}${i}`)).join(' ');
}

/** The argument text of a contribution; markers at both ends reveal a cut. */
export function argumentOf(cycle: number, persona: string, words: number): string {
  return `BEGIN-${cycle}-${persona} ${prose(words, `w${cycle}${persona}`)} END-${cycle}-${persona}`;
}

/** A debate of `cycles` cycles with every persona contributing ~`words` words each cycle. */
export function debate(cycles: number, words: number, personas = PERSONAS): readonly DebateCycleRecord[] {
  return Array.from({ length: cycles }, (_, c): DebateCycleRecord => {
    const cycle = c + 1;
    const contributions = personas.map((p, i): AttributedContribution => ({
      persona: p.name,
      position: `POSITION-${cycle}-${p.name}: adopt option ${(cycle + i) % 3}.`,
      argument: argumentOf(cycle, p.name, words),
      changedPosition: cycle > 1 && i === 0,
      changeReason: cycle > 1 && i === 0 ? `persuaded in cycle ${cycle}` : undefined,
      agreesWith: cycle > 1 ? [personas[(i + 1) % personas.length]?.name ?? ''] : [],
      concerns: [`CONCERN-${cycle}-${p.name}`],
      keyPoints: [`KEYPOINT-${cycle}-${p.name}: the fact it rests on.`],
    }));
    return {
      cycle,
      contributions,
      resolutionSummary: `SUMMARY-${cycle}: the council narrowed the options.`,
      openDisagreements: [`DISAGREEMENT-${cycle}: Ana and Bo differ on caching.`],
    };
  });
}

/** Concatenated text of rendered messages. */
export function allText(messages: readonly { readonly content: unknown }[]): string {
  return messages.map(m => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}
