import type { CouncilDeps } from '../core/council/ports';
import type { Decision } from '../core/council/eval/decisions';
import { evalReport, type Answer, type EvalCase } from '../core/council/eval/evalReport';
import { sessionEvalFacts } from '../core/council/eval/sessionFacts';
import { singlePrompt } from '../core/council/eval/singlePrompt';
import { collectReply } from '../core/llm/modelCall';
import type { LanguageModel } from '../core/llm/languageModel';
import { SpendingGovernor } from '../core/llm/spending/governor';
import { SpendingLedger } from '../core/llm/spending/ledger';
import { PriceBook } from '../core/llm/spending/prices';
import { spendSummary } from '../core/llm/spending/spendText';
import { askCouncil } from './askCouncil';

/*
 * `council eval`: the product's fixed decisions, each answered by the council (as `council ask --yes` runs it:
 * every clarifying question's recommended answer a logged assumption) and by one prompt to the same model, side by
 * side with cost and time and a rubric for a person. Both sides are paid through a spending governor.
 */

export interface EvalOptions {
  readonly decisions: readonly Decision[];
  /** The model the single prompt goes to (the council's opening model, so both sides run on the same one). */
  readonly model: LanguageModel;
  /** A council's dependencies, fresh for each decision (its own session, its own spending). */
  readonly councilDeps: () => CouncilDeps;
  readonly now: () => number;
  /** One line per step, for the terminal. */
  readonly progress: (line: string) => void;
}

/** The request a decision is to the council: the question, then the team's context (as `council_deliberate` joins them). */
function councilRequest(decision: Decision): string {
  return `${decision.question}\n\nContext:\n${decision.context}`;
}

async function single(decision: Decision, options: EvalOptions, deps: CouncilDeps): Promise<Answer> {
  const started = options.now();
  const governor = SpendingGovernor.create({
    limits: { maxRequests: 1 },
    scope: { subject: 'The single prompt', limits: {}, work: 'session' },
    advice: { raise: () => undefined, goOn: () => 'run council eval again' },
    prices: deps.spending?.prices ?? new PriceBook(),
    ledger: new SpendingLedger(),
  });
  const reply = await collectReply(
    governor.model(options.model, 'single prompt'),
    { messages: [{ role: 'user', content: singlePrompt(decision) }] },
    deps.token,
  );
  return { text: reply.text, cost: spendSummary(governor.spent), seconds: (options.now() - started) / 1000 };
}

/** Runs every decision both ways, one after the other (a person compares them; the order keeps costs readable). */
export async function evalCouncil(
  options: EvalOptions,
): Promise<{ readonly report: string; readonly cases: readonly EvalCase[] }> {
  const cases: EvalCase[] = [];
  for (const [index, decision] of options.decisions.entries()) {
    options.progress(`${index + 1}/${options.decisions.length} ${decision.id}: the council`);
    const deps = options.councilDeps();
    const started = options.now();
    const { log } = await askCouncil({ decision: councilRequest(decision), deps });
    const council: Answer = {
      text: log.snapshot.context.finalAnswer ?? `(no answer: the session ended ${String(log.state)})`,
      cost: spendSummary(log.spent),
      seconds: (options.now() - started) / 1000,
    };
    options.progress(`${index + 1}/${options.decisions.length} ${decision.id}: one prompt to the same model`);
    cases.push({
      decision,
      council,
      facts: sessionEvalFacts(log.snapshot),
      single: await single(decision, options, deps),
    });
  }
  const how = 'the council as `council ask --yes` runs it (each recommended answer taken as a logged assumption)';
  return { report: evalReport(options.model.name, cases, new Date(options.now()), how), cases };
}
