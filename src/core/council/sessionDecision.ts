import type { DecisionInput, DecisionOption } from '../decisions/decisionInput';
import type { SessionSnapshot } from '../session/machine';
import { activeAssumptions } from '../session/selectors';
import { voteTally } from './councilVote';
import { sessionOptionVote } from './optionVote';
import type { DebateCycleRecord } from './prompts/promptData';
import { councilSeatNames, debateRecords } from './sessionFacts';
import { optionVoteSentence, voteSentence } from './wording/markdown';
import { precedentStances } from './precedentStance';

/** What the door knows of a session that the session itself does not keep. */
export interface DecisionFacts {
  /** The model the council ran on, as the user knows it. */
  readonly model: string;
  /** What the session spent, in the governor's words. */
  readonly cost: string;
}

type Contribution = DebateCycleRecord['contributions'][number];

/** Each persona's last word: its latest contribution in any cycle. */
function lastWords(records: readonly DebateCycleRecord[]): Contribution[] {
  const latest = new Map<string, Contribution>();
  for (const record of records) for (const c of record.contributions) latest.set(c.persona, c);
  return [...latest.values()];
}

/** The points a persona made for what it backs: its key points, else its position. */
function pointsOf(c: Contribution): string[] {
  return c.keyPoints.length > 0 ? c.keyPoints.slice(0, 3) : [c.position];
}

/**
 * A completed session as a decision record's content (undefined before the final answer): the question and the
 * user's answers, the options with the pros their backers argued and the cons others raised, the vote, the strongest
 * dissent verbatim, the assumptions. Built from what the session stored, so a record needs no model request.
 */
export function decisionOfSession(snapshot: SessionSnapshot, facts: DecisionFacts): DecisionInput | undefined {
  const c = snapshot.context;
  if (snapshot.value !== 'completed' || !c.finalAnswer) return undefined;
  const records = debateRecords(snapshot);
  const personas = councilSeatNames(snapshot);
  const words = lastWords(records);
  const optionVote = sessionOptionVote(records, c.selection?.options, personas);
  const tally = voteTally(records);
  const named = c.selection?.options ?? [];

  // Options: the opening's named ones with their backers' points; without them, each distinct last position.
  const options: DecisionOption[] =
    named.length > 0
      ? named.map(option => {
          const backers = words.filter(w => w.option === option.label);
          const others = words.filter(w => w.option !== undefined && w.option !== option.label);
          return {
            name: option.option,
            pros: backers.flatMap(w => pointsOf(w).map(text => ({ persona: w.persona, text }))),
            cons: [
              ...backers.flatMap(w => w.concerns.map(text => ({ persona: w.persona, text }))),
              ...others.map(w => ({ persona: w.persona, text: `backs another option: ${w.position}` })),
            ],
          };
        })
      : [...new Map(words.map(w => [w.position, w])).values()].map(w => ({
          name: w.position,
          pros: pointsOf(w).map(text => ({ persona: w.persona, text })),
          cons: w.concerns.map(text => ({ persona: w.persona, text })),
        }));

  const leading = optionVote?.standing.leading;
  const chosen =
    named.find(o => o.label === leading)?.option ??
    (tally?.leader !== undefined ? tally.counts[0]?.position : undefined) ??
    options[0]?.name ??
    c.requestText;
  const ballots = optionVote?.standing.ballots ?? [];
  const backing = leading === undefined ? 0 : ballots.filter(b => b.option === leading).length;
  const confidence =
    ballots.length > 0
      ? backing / ballots.length
      : tally && tally.ballots.length > 0
        ? (tally.counts[0]?.voters.length ?? 0) / tally.ballots.length
        : 0;
  const dissenter = words.find(w =>
    optionVote ? w.option !== undefined && w.option !== leading : (tally?.dissent ?? []).includes(w.persona),
  );
  const questionText = new Map(c.questions.map(q => [q.questionId, q.question]));
  return {
    question: c.requestText,
    answered: c.answers
      .filter(a => !a.skipCommand)
      .flatMap(a => {
        const question = questionText.get(a.questionId);
        return question ? [{ question, answer: a.answer }] : [];
      }),
    options,
    chosen,
    answer: c.finalAnswer,
    vote: optionVoteSentence(optionVote) ?? voteSentence(tally),
    confidence,
    consequences: [...new Set(words.filter(w => w.option === leading).flatMap(w => w.concerns))].slice(0, 5),
    ...(dissenter ? { dissent: { persona: dissenter.persona, text: dissenter.argument } } : {}),
    assumptions: activeAssumptions(snapshot).map(a => a.assumption),
    sessionId: c.sessionId,
    personas,
    model: facts.model,
    cost: facts.cost,
    ...(c.precedent
      ? {
          precedent: precedentStances(snapshot).map(s => ({
            record: `${s.record.number}. ${s.record.title}`,
            agrees: !s.against,
          })),
        }
      : {}),
  };
}
