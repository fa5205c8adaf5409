import type { RecordFormat } from './decisionRecord';
import type { DecisionInput, DecisionOption } from './decisionInput';

/** A record to write, and the earlier record it supersedes (if the user chose to). */
export interface RecordDraft {
  readonly number: number;
  readonly title: string;
  readonly date: string;
  readonly format: RecordFormat;
  readonly decision: DecisionInput;
  readonly supersedes?: { readonly number: number; readonly title: string; readonly name: string };
}

/** A title from the decision: the chosen option, as a sentence, at most 80 characters. */
export function titleFor(decision: DecisionInput): string {
  const base = (decision.chosen || decision.question)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.?!]+$/, '');
  const title = base.charAt(0).toUpperCase() + base.slice(1);
  return title.length <= 80 ? title : `${title.slice(0, 79).trimEnd()}…`;
}

const bullet = (items: readonly string[]): string => items.map(i => `* ${i.replace(/\s*\n\s*/g, ' ')}`).join('\n');
const quote = (text: string): string =>
  text
    .split(/\r?\n/)
    .map(line => `> ${line}`)
    .join('\n');
const percent = (confidence: number): string => `${Math.round(confidence * 100)}%`;

function contextText(d: DecisionInput): string {
  const answered = d.answered.length
    ? `\n\nThe council asked, and was told:\n\n${d.answered.map(a => `* **${a.question}** ${a.answer}`).join('\n')}`
    : '';
  return `${d.question}${answered}`;
}

function prosAndCons(option: DecisionOption): string {
  const lines = [
    ...option.pros.map(p => `* Good, because ${p.text} (${p.persona})`),
    ...option.cons.map(c => `* Bad, because ${c.text} (${c.persona})`),
  ];
  return `### ${option.name}\n\n${lines.join('\n') || '* No arguments recorded.'}`;
}

function dissentText(d: DecisionInput): string {
  return d.dissent
    ? `Dissent, kept as ${d.dissent.persona} said it:\n\n${quote(d.dissent.text)}`
    : 'No dissent was recorded.';
}

function assumptionsText(d: DecisionInput): string {
  return d.assumptions.length ? bullet(d.assumptions.map(a => `${a} (to be verified)`)) : '* None recorded.';
}

function moreInformation(d: DecisionInput): string {
  const precedent = d.precedent?.length
    ? [
        `* Earlier records considered: ${d.precedent.map(p => `${p.record} (${p.agrees ? 'agrees' : 'disagrees'})`).join(', ')}`,
      ]
    : [];
  return (
    bullet([
      `Council session: ${d.sessionId}`,
      `Personas: ${d.personas.join(', ')}`,
      `Model: ${d.model}`,
      `Cost: ${d.cost}`,
    ]) + (precedent.length ? `\n${precedent.join('\n')}` : '')
  );
}

function supersedesLine(draft: RecordDraft): string {
  const s = draft.supersedes;
  return s ? `Supersedes [${s.number}. ${s.title}](${s.name})` : '';
}

function madr(draft: RecordDraft): string {
  const d = draft.decision;
  const outcome = [
    `Chosen option: "${d.chosen}", because the council voted ${d.vote} (combined confidence ${percent(d.confidence)}).`,
    '',
    d.answer.trim(),
    '',
    supersedesLine(draft),
  ].join('\n');
  return `---
status: proposed
date: ${draft.date}
---

# ${draft.title}

## Context and Problem Statement

${contextText(d)}

## Considered Options

${bullet(d.options.map(o => o.name))}

## Decision Outcome

${outcome.trim()}

### Consequences

${d.consequences.length ? bullet(d.consequences) : '* None recorded.'}

### Dissent

${dissentText(d)}

### Assumptions

${assumptionsText(d)}

## Pros and Cons of the Options

${d.options.map(prosAndCons).join('\n\n')}

## More Information

${moreInformation(d)}
`;
}

function nygard(draft: RecordDraft): string {
  const d = draft.decision;
  return `# ${draft.number}. ${draft.title}

Date: ${draft.date}

## Status

Proposed${draft.supersedes ? `\n\n${supersedesLine(draft)}` : ''}

## Context

${contextText(d)}

Options considered:

${bullet(d.options.map(o => o.name))}

## Decision

We will ${d.chosen.charAt(0).toLowerCase()}${d.chosen.slice(1)}. The council voted ${d.vote} (combined confidence ${percent(d.confidence)}).

${d.answer.trim()}

## Consequences

${d.consequences.length ? bullet(d.consequences) : '* None recorded.'}

${dissentText(d)}

Assumptions:

${assumptionsText(d)}

## Pros and Cons of the Options

${d.options.map(prosAndCons).join('\n\n')}

## More Information

${moreInformation(d)}
`;
}

/** The record's Markdown in the team's format; status is always "proposed" (the team accepts it in review). */
export function renderRecord(draft: RecordDraft): string {
  return draft.format === 'madr' ? madr(draft) : nygard(draft);
}
