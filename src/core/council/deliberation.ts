import { z } from 'zod';
import type { PersonaContract } from '../personas/contract';
import { MAX_PANEL, MIN_PANEL } from '../personas/select';
import type { SessionSnapshot } from '../session/machine';
import { optionVoteSentence, untrusted, voteSentence } from './wording/markdown';
import { sessionOptionVote } from './optionVote';
import { voteTally } from './councilVote';
import { debateRecords } from './sessionFacts';
import { openSessionCommand } from './chatIntent';
import { debateTokens, estimateDebate, openingTokens, type DebateExpectation } from './debatePlan';
import { expectFromHistory } from './debateHistory';
import type { DebateOutcome } from './debateOutcome';
import type { DebateOutlook } from '../session/debateOutlook';
import { forecastText, type ForecastFigure } from '../llm/spending/forecastText';
import type { SpendTotals } from '../llm/spending/ledger';
import { MAX_REPAIRS_PER_REPLY } from '../llm/repairBudget';
import { costSpanText, spendSummary, tokensText } from '../llm/spending/spendText';
import type { DebateProtocol } from './protocol';
import { sessionNextSteps } from './sessionNextSteps';
import { nextCallsText } from './toolNextCalls';
import { clarifyingReport, ContinuationFields, type QuestionsAsked } from './toolSession';

/**
 * The vscode-free part of the `council_deliberate` language model tool: what an agent may pass, what a run
 * will cost, and the text the agent gets back. Schema in package.json `contributes.languageModelTools`.
 */

/** A new session's request: debated without clarifying questions. */
const NewDebate = {
  question: z.string().trim().min(1, 'question must not be empty'),
  context: z.string().optional(),
  personas: z.array(z.string()).optional(),
  maxCycles: z.number().int().min(1).optional(),
};

/**
 * The tool's input as the agent sends it (the inputSchema in package.json): a `question` starts a session that
 * debates without clarifying questions; a `sessionId` continues a stored one (answers, extend, revisit, more, retry).
 */
export const DeliberationInputSchema = z
  .object({ ...NewDebate, question: NewDebate.question.optional(), ...ContinuationFields })
  .refine(input => (input.question === undefined) !== (input.sessionId === undefined), {
    message:
      'give either `question` (a new session, debated without clarifying questions) or `sessionId` (a session to continue, e.g. the one council_open returned), not both',
  });
export type DeliberationInput = z.infer<typeof DeliberationInputSchema>;

/** A deliberation that starts a new session. */
export type NewDebateInput = z.infer<z.ZodObject<typeof NewDebate>>;

/** How many model requests a run may make: `fewest` if the council agrees after the first cycle. */
export interface RequestEstimate {
  readonly fewest: number;
  readonly most: number;
}

/** What one tool call will run, decided before any model call. */
export interface DeliberationPlan {
  /** The request the session debates: the question, then the agent's context. */
  readonly request: string;
  /** Personas the agent named that exist, in its order (empty: the council chooses). */
  readonly named: readonly PersonaContract[];
  /** Ids the agent named that match no persona. */
  readonly unknownIds: readonly string[];
  /** The session's debate cycle limit. */
  readonly cycles: number;
  /** Personas named, and personas the council may choose from. */
  readonly panel: { readonly named: number; readonly available: number };
  readonly estimate: RequestEstimate;
  /** The requests the run will probably make (see `requestForecast`). */
  readonly expected: number;
}

/**
 * Counts the calls a run without clarification makes, by the rules the debate plans with (debatePlan): the
 * selection (none when the panel is named or there is nothing to choose), the first drafts, the later cycles
 * the budget allows (economy: for those still in disagreement; thorough: everyone plus the moderator), one
 * answer. With `lookupRounds` (personas grounded in the workspace), each contribution may take up to that many
 * look-up requests more. `fewest`: the council agrees after the first cycle. Never more than `budget`.
 */
export function requestEstimate(...args: Parameters<typeof requestForecast>): RequestEstimate {
  const { fewest, most } = requestForecast(...args);
  return { fewest, most };
}

/** What the expected figure is learnt from besides the rules: the workspace's finished debates and the opening's read. */
export interface ExpectationFacts {
  readonly history: readonly DebateOutcome[];
  /** The read of a session that has one (a continuation); a new session has none before its opening. */
  readonly outlook?: DebateOutlook | undefined;
}

const NO_FACTS: ExpectationFacts = { history: [] };
const NOTHING_MEASURED = { input: 0, output: 0 };

/**
 * {@link requestEstimate}, and what a run will probably spend: the selection, and the debate as the chat forecasts
 * it (debateHistory's `expectFromHistory`: the workspace's finished debates, else the prior; never above the
 * estimate's most), its tokens for a request and context of `contextTokens`.
 */
function requestForecast(
  panel: { readonly named: number; readonly available: number },
  cycles: number,
  lookupRounds = 0,
  protocol: DebateProtocol = 'economy',
  budget?: number,
  facts: ExpectationFacts = NO_FACTS,
  contextTokens = 0,
): RequestEstimate & { readonly expected: DebateExpectation } {
  const chosen = panel.named === 0;
  const selection = chosen && panel.available > MIN_PANEL ? 1 : 0;
  const smallest = chosen ? Math.min(MIN_PANEL, panel.available) : panel.named;
  const largest = chosen ? Math.min(MAX_PANEL, panel.available) : panel.named;
  const firstLookups = lookupRounds > 0 ? 1 : 0;
  const cap = budget ?? Number.MAX_SAFE_INTEGER;
  const bound = estimateDebate(protocol, largest, cycles, cap - selection, 1 + lookupRounds);
  const most = selection + bound.total;
  const fewest = selection + smallest * (1 + firstLookups) + (protocol === 'thorough' ? 1 : 0) + 1;
  const debate = expectFromHistory(
    bound,
    protocol,
    largest,
    contextTokens,
    NOTHING_MEASURED,
    facts.history,
    1 + lookupRounds,
    facts.outlook,
  );
  const selecting = openingTokens(contextTokens, panel.available);
  const expected = {
    requests: selection + debate.requests,
    input: selection * selecting.input + debate.input,
    output: selection * selecting.output + debate.output,
  };
  return { fewest: Math.min(fewest, most), most, expected };
}

/**
 * The requests a run will probably make (see `requestForecast`); never above the estimate's most.
 * Arguments as {@link requestEstimate}'s.
 */
export function expectedRequests(...args: Parameters<typeof requestForecast>): number {
  return requestForecast(...args).expected.requests;
}

/**
 * What a run will probably spend, requests and tokens, for a request and context of `contextTokens`: the same
 * figure the chat shows before a debate. Other arguments as {@link requestEstimate}'s.
 */
export function expectedSpend(
  contextTokens: number,
  panel: Parameters<typeof requestForecast>[0],
  cycles: number,
  lookupRounds: number,
  protocol: DebateProtocol,
  budget: number | undefined,
  facts: ExpectationFacts,
): DebateExpectation {
  return requestForecast(panel, cycles, lookupRounds, protocol, budget, facts, contextTokens).expected;
}

/**
 * The plan for `input`: named personas resolved by id, cycles clamped to 1..`maxCycles` (the configured
 * maximum; the configured default `defaultCycles` when the agent gave none); `lookupRounds` as in {@link requestEstimate}.
 */
export function deliberationPlan(
  input: NewDebateInput,
  personas: readonly PersonaContract[],
  defaultCycles: number,
  maxCycles: number,
  lookupRounds = 0,
  spending: { readonly protocol?: DebateProtocol; readonly budget?: number; readonly facts?: ExpectationFacts } = {},
): DeliberationPlan {
  const ids = [...new Set(input.personas ?? [])];
  const named = ids.flatMap(id => personas.filter(p => p.id === id));
  const unknownIds = ids.filter(id => !personas.some(p => p.id === id));
  const cycles = Math.max(1, Math.min(input.maxCycles ?? defaultCycles, maxCycles));
  const request = sessionRequest(input.question, input.context);
  const panel = { named: named.length, available: personas.length };
  const { fewest, most, expected } = requestForecast(
    panel,
    cycles,
    lookupRounds,
    spending.protocol,
    spending.budget,
    spending.facts,
  );
  return { request, named, unknownIds, cycles, panel, estimate: { fewest, most }, expected: expected.requests };
}

/** The request a session started by a tool debates: the question, then the agent's context. */
export function sessionRequest(question: string, context: string | undefined): string {
  const given = context?.trim();
  return given ? `${question.trim()}\n\nContext:\n${given}` : question.trim();
}

function shortened(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The line VS Code shows while the tool runs. */
export function invocationMessage(input: DeliberationInput): string {
  return input.question !== undefined
    ? `Consulting the council: ${shortened(input.question)}`
    : `Continuing council session ${input.sessionId ?? ''}`;
}

/** What a run may cost in tokens and credits, from its fewest to its most requests. */
export interface CostEstimate {
  readonly tokens: { readonly fewest: number; readonly most: number };
  /** Undefined: the model's price is unknown. */
  readonly credits?: { readonly fewest: number; readonly most: number };
  /** What the run will probably cost, when its expected requests are known. */
  readonly expected?: ForecastFigure;
}

/**
 * Tokens and credits of `estimate`'s requests when every request carries `contextTokens` (the question and
 * context) and the positions of up to `seats` personas; `quote` prices tokens on the model (debatePlan's rule).
 */
export function costEstimate(
  estimate: RequestEstimate,
  contextTokens: number,
  seats: number,
  quote: (input: number, output: number) => number | undefined,
  likely?: DebateExpectation,
  protocol: DebateProtocol = 'economy',
): CostEstimate {
  const fewest = debateTokens(estimate.fewest, contextTokens, seats, protocol);
  const most = debateTokens(estimate.most, contextTokens, seats, protocol);
  const low = quote(fewest.input, fewest.output);
  const high = quote(most.input, most.output);
  return {
    tokens: { fewest: fewest.input + fewest.output, most: most.input + most.output },
    ...(low !== undefined && high !== undefined ? { credits: { fewest: low, most: high } } : {}),
    ...(likely
      ? {
          expected: {
            requests: likely.requests,
            tokens: likely.input + likely.output,
            credits: quote(likely.input, likely.output),
          },
        }
      : {}),
  };
}

function range(low: string, high: string): string {
  return low === high ? high : `${low}–${high}`;
}

/**
 * The confirmation shown before a run, since every model request is billed (tokens × the model's price).
 * `model` is the name of the model that will answer (undefined: none is available).
 */
export function confirmationMessage(
  plan: Pick<DeliberationPlan, 'request' | 'named' | 'unknownIds' | 'cycles' | 'estimate'>,
  model: string | undefined,
  cost?: CostEstimate,
  continued?: { readonly sessionId: string; readonly council: string },
): { readonly title: string; readonly message: string } {
  const panel =
    plan.named.length > 0
      ? `${plan.named.map(p => p.name).join(', ')} (as requested)`
      : 'chosen for the question by the model';
  const unknown = plan.unknownIds.length > 0 ? ` Unknown persona ids, ignored: ${plan.unknownIds.join(', ')}.` : '';
  const requests = range(`${plan.estimate.fewest}`, `${plan.estimate.most}`);
  return {
    title: continued ? 'Continue the Council session?' : 'Run a Council debate?',
    message:
      (continued
        ? `Council will continue session ${continued.sessionId}: "${shortened(plan.request, 200)}".\n\n- Council: ${continued.council}.\n`
        : `Council will debate "${shortened(plan.request, 200)}" without clarifying questions.\n\n- Council: ${panel}.${unknown}\n`) +
      `- Model: ${model ?? 'none is available, so the council cannot run'}.\n` +
      `- Up to ${plan.cycles} debate cycle${plan.cycles === 1 ? '' : 's'}, stopping early when the council agrees.\n` +
      (cost?.expected
        ? `- ${forecastText(cost.expected, { requests: plan.estimate.most, tokens: cost.tokens.most, credits: cost.credits?.most })} ` +
          `(at least ${plan.estimate.fewest} if the council agrees after the first cycle; a malformed reply costs up to 2 more).`
        : `- ${requests} model requests (the fewest if the council agrees after the first cycle; a malformed reply costs ` +
          `up to 2 more)${cost ? `: about ${costText(cost)}` : ''}.`) +
      ` Requests are billed by tokens × the model's price, within \`council.budget.maxCredits\`.`,
  };
}

/**
 * The cost line of `council_open`'s confirmation: `opening` requests expected, and at most each reply's repairs
 * more (`cost` priced for that bound, with the opening as its expected figure).
 */
export function openingForecastLine(opening: number, cost: CostEstimate | undefined): string {
  const most = opening * (1 + MAX_REPAIRS_PER_REPLY);
  if (!cost?.expected)
    return `${opening}–${most} model requests (a malformed reply costs up to ${MAX_REPAIRS_PER_REPLY} more), at an unknown cost`;
  return `${forecastText(cost.expected, { requests: most, tokens: cost.tokens.most, credits: cost.credits?.most })} (the most if every reply is malformed and repaired)`;
}

/** "12k–40k tokens, 4.1–15 AI credits" (or "price unknown"). */
function costText(cost: CostEstimate): string {
  const tokens = `${range(tokensText(cost.tokens.fewest), tokensText(cost.tokens.most))} tokens`;
  const credits = cost.credits ? costSpanText(cost.credits.fewest, cost.credits.most) : "the model's price is unknown";
  return `${tokens}, ${credits}`;
}

/** What the agent gets back after a run. */
export interface DeliberationOutcome {
  readonly snapshot: SessionSnapshot;
  /** What this run spent: requests, tokens, estimated credits. */
  readonly spent: SpendTotals;
  /** What the confirmation estimated, shown next to what was used. */
  readonly estimate?: RequestEstimate;
  /** The requests the confirmation expected (its other figure), shown next to what was used. */
  readonly expected?: number;
  /** Why the run stopped before the final answer (cancelled or failed); undefined when it finished. */
  readonly stopped?: string;
  readonly unknownIds?: readonly string[];
  /** The model the council ran on and why ("GPT-5 mini (set in `council.models.default`)"). */
  readonly model?: string;
  /** Whether the session skipped clarification (a new session by question) or asked the user. */
  readonly clarified?: boolean;
  /** The answer written from the vote and the standing positions, when the answer's own request failed. */
  readonly fromVote?: string;
}

/** Where the user finds the session afterwards, and its next steps as tool calls (the chat's buttons). */
function sessionNote(snapshot: SessionSnapshot, stopped: boolean): string {
  const sessionId = snapshot.context.sessionId;
  const next = nextCallsText(sessionNextSteps(snapshot, { stopped }));
  return [
    `Council session ${sessionId} is saved in this workspace. The user can read the whole debate with the command ` +
      '"Council: Export Session Transcript" (it exports the most recently saved council session: this one, until another starts). ' +
      `To open it in the chat and continue it there (its status, its answer, "Extend the debate"), the user types: \`${openSessionCommand(sessionId)}\``,
    ...(next ? ['', next] : []),
  ].join('\n');
}

/** Cycle summaries so far, for a run that stopped before the final answer. */
function progressSoFar(snapshot: SessionSnapshot): string {
  const summaries = snapshot.context.discussions.flatMap(d =>
    d.status === 'in_progress'
      ? []
      : [`- Cycle ${d.cycleNumber}: ${untrusted(d.resolutionSummary).replace(/\n/g, ' ')}`],
  );
  return summaries.length > 0
    ? `What the debate established before it stopped:\n${summaries.join('\n')}`
    : 'No debate cycle was completed.';
}

/** " (forecast: about 7 requests, at most 11)", beside what a run spent; "" without a forecast. */
function forecastBeside(outcome: Pick<DeliberationOutcome, 'estimate' | 'expected'>): string {
  if (!outcome.estimate) return '';
  const { most } = outcome.estimate;
  return outcome.expected === undefined
    ? ` (estimated ${outcome.estimate.fewest}–${most} requests)`
    : ` (forecast: about ${outcome.expected} request${outcome.expected === 1 ? '' : 's'}, at most ${most})`;
}

/**
 * The tool result for an agent: the council's answer (recommendation, each persona's conclusion, open
 * disagreements, assumptions), how many requests it used, and the session to open later.
 */
export function deliberationResultText(outcome: DeliberationOutcome): string {
  const c = outcome.snapshot.context;
  const council =
    c.participants
      .filter(p => p.type === 'persona')
      .map(p => p.name)
      .join(', ') || 'not chosen';
  const last = c.discussions.at(-1);
  // Always stated, so an agent can tell "nothing contested" from "not reported".
  const tally = voteTally(debateRecords(outcome.snapshot));
  const open =
    outcome.stopped !== undefined || last?.status === 'in_progress'
      ? 'Open disagreements: not settled (the council did not finish).'
      : last === undefined
        ? 'Open disagreements: none reported (no debate cycle ran; the personas answered directly).'
        : last.converged
          ? 'Open disagreements: none (the council converged).'
          : `Open disagreements: ${last.resolutionSummary}`;
  const facts = [
    `Council: ${council}. Debate cycles: ${c.debateCycles}. Spent: ${spendSummary(outcome.spent)}${forecastBeside(outcome)}.`,
    ...(outcome.model ? [`Model: ${outcome.model}.`] : []),
    optionVoteSentence(
      sessionOptionVote(
        debateRecords(outcome.snapshot),
        c.selection?.options,
        c.participants.filter(p => p.type === 'persona').map(p => p.name),
      ),
    ) ??
      (!tally && outcome.stopped !== undefined ? 'Vote: none yet (the council did not finish).' : voteSentence(tally)),
    open,
    outcome.clarified
      ? `Clarifying questions: ${c.questions.length} asked, the skipped ones logged as assumptions (listed in the answer).`
      : 'No clarifying questions were asked: the council worked from the question and context as given.',
    ...(outcome.unknownIds?.length ? [`Unknown persona ids, ignored: ${outcome.unknownIds.join(', ')}.`] : []),
  ].join('\n');
  const body = outcome.fromVote
    ? `${outcome.fromVote}\n\n${outcome.stopped ?? ''}`.trim()
    : outcome.stopped === undefined && c.finalAnswer
      ? c.finalAnswer
      : `The council did not finish. ${outcome.stopped ?? ''}\n\n${progressSoFar(outcome.snapshot)}`;
  return [facts, body, sessionNote(outcome.snapshot, outcome.stopped !== undefined)].join('\n\n') + '\n';
}

/** How a tool call left a session, in every door: the result's facts beside the session itself. */
export interface SessionToolOutcome extends Omit<DeliberationOutcome, 'snapshot' | 'spent' | 'clarified' | 'model'> {
  readonly model: string;
  /** How the questions put to the user went (VS Code's question tool). */
  readonly asked?: QuestionsAsked;
  /** The debate still ahead, for a session still clarifying (what `council_deliberate` may cost). */
  readonly ahead?: Parameters<typeof clarifyingReport>[1]['ahead'];
}

/**
 * What an agent gets back from a call on `session`, the same from every door: while it is still clarifying (or has
 * not debated yet) its questions and how to answer them (after why it stopped, when a stop left questions open),
 * otherwise the council's answer, or how far it got before it stopped.
 */
export function sessionToolResult(
  session: { readonly snapshot: SessionSnapshot; readonly spent: SpendTotals },
  { asked, ahead, ...outcome }: SessionToolOutcome,
): string {
  const { snapshot, spent } = session;
  const open =
    snapshot.value === 'clarifying' || (snapshot.value === 'debating' && snapshot.context.debateCycles === 0);
  const report = () =>
    clarifyingReport(snapshot, {
      model: outcome.model,
      spent,
      ...(asked ? { asked } : {}),
      ...(ahead ? { ahead } : {}),
    });
  if (open && outcome.stopped === undefined) return report();
  if (snapshot.value === 'clarifying') return `${outcome.stopped}\n\n${report()}`;
  return deliberationResultText({ ...outcome, snapshot, spent, clarified: snapshot.context.questions.length > 0 });
}
