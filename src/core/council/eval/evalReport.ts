import { COMMON_RUBRIC, type Decision } from './decisions';

/** One way of answering a decision, as the report shows it. */
export interface Answer {
  readonly text: string;
  /** e.g. "12 requests · 31k tokens (28k in, 2.6k out) · about 15 AI credits". */
  readonly cost: string;
  readonly seconds: number;
}

/** What the council did on one decision, read from its tool result: whether it debated, its vote, its confidence. */
export interface CouncilFacts {
  /** "no: the first drafts settled it (1 cycle)", "yes: 3 debate cycles". */
  readonly escalated: string;
  /** The tool's vote sentence, or "not reported". */
  readonly vote: string;
  /** The answer's combined confidence, or why there is none. */
  readonly confidence: string;
}

/** One decision answered both ways. */
export interface EvalCase {
  readonly decision: Decision;
  readonly council: Answer;
  /** Read by the door from what it has: the session (the `council` command) or the tool's result (the extension). */
  readonly facts: CouncilFacts;
  readonly single: Answer;
}

/** The fence that keeps an answer's own Markdown from breaking the report's structure. */
function quoted(text: string): string {
  return text
    .trim()
    .split('\n')
    .map(line => `> ${line}`)
    .join('\n');
}

function councilFactsList(facts: CouncilFacts): string {
  return [
    `- _Council escalated to a debate:_ ${facts.escalated}`,
    `- _Vote:_ ${facts.vote}`,
    `- _Combined confidence:_ ${facts.confidence}`,
  ].join('\n');
}

function checklist(items: readonly string[]): string {
  return items.map(item => `- [ ] ${item}`).join('\n');
}

/**
 * The side-by-side report a person judges: per decision, the rubric to tick for each answer, then the council's
 * answer and the single prompt's, each with what it cost and how long it took. No automatic score: which answer
 * is better is the person's call, and the report says so.
 */
export function evalReport(model: string, cases: readonly EvalCase[], when: Date, how: string): string {
  const rubricOf = (decision: Decision) => [...decision.rubric, ...COMMON_RUBRIC];
  const sections = cases.map(({ decision, council, facts, single }) =>
    [
      `## ${decision.id}: ${decision.question}`,
      `_Context given to both:_ ${decision.context}`,
      [
        '| | council | single prompt |',
        '| --- | --- | --- |',
        `| cost | ${council.cost} | ${single.cost} |`,
        `| time | ${council.seconds.toFixed(1)} s | ${single.seconds.toFixed(1)} s |`,
      ].join('\n'),
      councilFactsList(facts),
      '### Rubric: the council',
      checklist(rubricOf(decision)),
      '### Rubric: the single prompt',
      checklist(rubricOf(decision)),
      '**Better answer:** ☐ council ☐ single prompt ☐ no difference',
      '### The council',
      quoted(council.text),
      '### The single prompt',
      quoted(single.text),
    ].join('\n\n'),
  );
  return [
    '# Council eval: the council against a single prompt',
    `Model: ${model} · ${cases.length} decision${cases.length === 1 ? '' : 's'} · ${when.toISOString()}`,
    `Tick each rubric line the answer meets, then mark the better answer. Both sides ran on the same model with the same question and context; ${how}.`,
    ...sections,
  ].join('\n\n');
}
