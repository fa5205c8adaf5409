import type { CouncilFacts } from '../../src/core/council/eval/evalReport';
import { escalation } from '../../src/core/council/eval/sessionFacts';

/**
 * The facts of a `council_deliberate` result text (its header lines and the answer's combined-confidence line): the
 * extension's eval reads what an agent reads, the tool's result.
 */
export function toolResultFacts(text: string): CouncilFacts {
  const cycles = Number(/Debate cycles: (\d+)/.exec(text)?.[1] ?? Number.NaN);
  const vote = /^Vote: (.*)$/m.exec(text)?.[1] ?? 'not reported';
  const confidence =
    /\*\*Combined confidence:\*\* (.*)$/m.exec(text)?.[1] ?? 'not stated (the opening named no options)';
  return { escalated: Number.isNaN(cycles) ? 'not reported' : escalation(cycles), vote, confidence };
}
