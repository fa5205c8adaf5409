/**
 * Council benchmark: one scripted session (4 personas, 2 clarifying questions answered, the council agreeing
 * from cycle 3, cycle limit 10), side by side under the economy protocol (with the default budget of 12) and the thorough one
 * (with a budget of 24, and once at 12), against a model with real-model latency: time to first token, then
 * output at a token rate, with output lengths typical of each step (bench/latencyModel.ts).
 *
 *   npx tsx bench/council.bench.ts
 *   BENCH_TTFT_MS=800 BENCH_TOKENS_PER_S=60 BENCH_TIME_SCALE=0.05 BENCH_RUNS=3
 *
 * Figures are in model time (real time ÷ BENCH_TIME_SCALE). Wall time is compared with the heaviest chain of
 * calls that ran one after another (each call weighted by its nominal duration): the critical-path bound.
 * Time spent off the model (prompt rendering, the scripted council, timers firing late) is not scaled down, so it
 * weighs 1/scale times more in model time: at the default 0.05 the ratio reads ~0.01 higher than at 0.25 (1.02x vs
 * 1.01x on one machine), an overstatement, never a flattering one.
 */
import { pathToFileURL } from 'node:url';
import { newCouncilSession, runCouncilTurn } from '../src/core/council/councilTurn';
import type { CouncilCommand } from '../src/core/council/commands';
import type { CouncilOutput, DebateHistoryStore } from '../src/core/council/ports';
import { rememberDebate } from '../src/core/council/debateHistory';
import type { DebateOutcome } from '../src/core/council/debateOutcome';
import type { DebateProtocol } from '../src/core/council/protocol';
import { sessionView } from '../test/support/sessionViews';
import { messageText } from '../src/core/llm/usage';
import { councilResponder, councilRig } from '../test/support/councilHarness';
import { ANSWER_STEP, councilReply, speakerOf, type CouncilScriptOptions } from '../test/support/councilScript';
import { LanguageModelFailure } from '../src/core/llm/languageModel';
import { valueReply } from '../test/support/scriptedModel';
import { checkCriticalPath, weightedCriticalPath } from './criticalPath';
import type { LedgerLine, SpendTotals } from '../src/core/llm/spending/ledger';
import { creditsFor, DEFAULT_COPILOT_PRICES } from '../src/core/llm/spending/prices';
import { creditsText } from '../src/core/llm/spending/spendText';
import { creditsAtPricePoints, PRICE_POINTS, PRICE_POINTS_LABEL } from './pricePoints';
import {
  benchRunsFromEnv,
  LatencyModel,
  latencyProfileFromEnv,
  STEPS,
  type LatencyProfile,
  type Step,
  type TimedCall,
} from './latencyModel';

const PERSONA_IDS = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'] as const;
const QUESTIONS = 2;
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 10, adminMaxDebateCycles: 20 };
const TURNS: readonly { readonly label: string; readonly command: CouncilCommand }[] = [
  { label: 'start (council + questions)', command: { kind: 'retry' } },
  { label: 'answer question 1', command: { kind: 'answer', text: 'Latency matters most.' } },
  { label: 'answer question 2 (debate + answer)', command: { kind: 'answer', text: 'At most two weeks of work.' } },
];

/** ~330 tokens of argument, the length of a real persona's contribution. */
const TYPICAL_ARGUMENT = Array.from(
  { length: 12 },
  (_, i) =>
    `Point ${i + 1}: the trade-off between revocation, operational cost and implementation effort shifts when traffic grows past the current load.`,
).join(' ');

/** ~75 tokens: three decisive facts, as a real persona states them. */
const TYPICAL_KEY_POINTS = [
  'Server-side sessions in Redis revoke at once on logout or compromise; signed cookies cannot be revoked before expiry.',
  'A Redis round trip adds under 1 ms at the current load; the p99 latency budget is 50 ms.',
  'Two weeks fit one Redis instance with a fallback to re-login, not a cluster.',
];

/**
 * ~650 tokens: the answer's prose as long as a real consolidated answer (recommendation, where each persona landed,
 * what is left open, next steps), so its output weighs what a user pays for it.
 */
const TYPICAL_ANSWER = Array.from(
  { length: 20 },
  (_, i) =>
    `\n- Step ${i + 1}: keep sessions in Redis with a short TTL, revoke on logout, and measure the p99 latency against the 50 ms budget before widening the rollout.`,
).join('');

/** The scripted council with replies as long as real ones: each contribution's argument and the answer's prose. */
function benchResponder(script: CouncilScriptOptions, also?: Parameters<typeof councilResponder>[1]) {
  return councilResponder(script, (step, request, index) => {
    const custom = also?.(step, request, index);
    if (custom !== undefined) return custom;
    const prompt = request.messages.map(messageText).join('\n');
    if (step === ANSWER_STEP) {
      const prose = (councilReply(step, prompt, script) as { prose: readonly string[] }).prose;
      return { kind: 'parts', parts: [...prose, TYPICAL_ANSWER].map(text => ({ kind: 'text' as const, text })) };
    }
    if (step !== 'contribute_to_debate') return undefined;
    // A contribution as long as a real one (~350 tokens), so what later prompts resend weighs what it would.
    const value = councilReply(step, prompt, script) as { argument: string };
    return valueReply({ ...value, argument: `${value.argument} ${TYPICAL_ARGUMENT}`, keyPoints: TYPICAL_KEY_POINTS });
  });
}

/** One case: its label, the protocol, the request budget and how the scripted council debates. */
interface Configuration {
  readonly label: string;
  readonly protocol: DebateProtocol;
  readonly maxRequests?: number;
  readonly script: CouncilScriptOptions;
}

/** The cases compared, side by side: the economy protocol, the default budget of 12 requests, the decision's options named. */
const ECONOMY: readonly Configuration[] = [
  {
    label: 'first drafts agree',
    protocol: 'economy',
    maxRequests: 12,
    script: { convergeAtCycle: 1, outlook: 'agree' },
  },
  {
    label: 'contested, settled in cycle 2',
    protocol: 'economy',
    maxRequests: 12,
    script: { convergeAtCycle: 2, dissenters: 1, outlook: 'debate' },
  },
  {
    label: 'contested to the limit',
    protocol: 'economy',
    maxRequests: 12,
    script: { convergeAtCycle: 'never', dissenters: 2, outlook: 'standoff' },
  },
];

/**
 * The thorough protocol (`council.debate.protocol`), which a user may choose instead: about twice the requests, so
 * under the default budget of 12 a split council stops after cycle 1. Its cases run with a budget that lets them
 * debate as the script says (24), and once at the default budget, so a user sees both what it costs and where 12 ends it.
 */
const THOROUGH_BUDGET = 24;
const THOROUGH: readonly Configuration[] = [
  ...ECONOMY.map(c => ({
    ...c,
    label: `thorough, budget ${THOROUGH_BUDGET}: ${c.label}`,
    protocol: 'thorough' as const,
    maxRequests: THOROUGH_BUDGET,
  })),
  {
    label: 'thorough, default budget 12: contested',
    protocol: 'thorough',
    maxRequests: 12,
    script: { convergeAtCycle: 2, dissenters: 1, outlook: 'debate' },
  },
];

const CONFIGURATIONS: readonly Configuration[] = [...ECONOMY, ...THOROUGH];

/** A row of a summary table. */
export interface SummaryRow {
  readonly metric: string;
  readonly value: string;
}

/** One session's figures, in model time. */
interface Run {
  readonly calls: readonly TimedCall[];
  /** What the session's governor counted: messages and tool definitions in, replies out. */
  readonly spent: SpendTotals;
  /** Who spent what: the diversity row re-prices it per seat. */
  readonly ledger: readonly LedgerLine[];
  /** The debate's forecast (the bound: requests, tokens), its expected figure, and what the debate then spent. */
  readonly forecast: { readonly requests: number; readonly tokens: number };
  readonly expected: { readonly requests: number; readonly tokens: number };
  /** The re-forecast shown after the first vote (absent when the protocol shows none). */
  readonly reforecast: { readonly requests: number; readonly tokens: number } | undefined;
  /** The re-forecast's "at most": what the debate spent in all may not exceed it. */
  readonly reforecastBound: { readonly requests: number; readonly tokens: number } | undefined;
  readonly debateSpent: { readonly requests: number; readonly tokens: number };
  readonly wallMs: number;
  readonly boundMs: number;
  readonly firstWordMs: number;
  readonly debateCycles: number;
  readonly stoppedBy: string;
}

function fail(message: string): never {
  throw new Error(`council bench: ${message}`);
}

/** Council output that notes when each piece of text reached the chat. */
class TimedOutput implements CouncilOutput {
  readonly writes: { readonly at: number; readonly text: string }[] = [];
  readonly progressLines: string[] = [];
  progress(text: string): void {
    this.progressLines.push(text);
  }
  markdown(text: string): void {
    this.writes.push({ at: performance.now(), text });
  }
}

/** Tokens as the chat words them ("15.2k", "900") back to a number. */
function tokensFrom(figure: string, k: string): number {
  return Number(figure) * (k === 'k' ? 1_000 : 1);
}

/** A workspace's debate history kept in memory: the runs of one configuration share it, as a user's sessions would. */
function memoryHistory(): DebateHistoryStore {
  let outcomes: readonly DebateOutcome[] = [];
  return {
    read: () => outcomes,
    remember: outcome => {
      outcomes = rememberDebate(outcomes, outcome);
    },
  };
}

async function runOnce(
  configuration: Configuration,
  profile: LatencyProfile,
  debateHistory: DebateHistoryStore,
): Promise<Run> {
  const script: CouncilScriptOptions = {
    personaIds: PERSONA_IDS,
    questions: QUESTIONS,
    decisionOptions: true,
    ...configuration.script,
  };
  const rig = await councilRig({
    script,
    responder: benchResponder(script),
    protocol: configuration.protocol,
    ...(configuration.maxRequests !== undefined ? { maxRequests: configuration.maxRequests } : {}),
  });
  const model = new LatencyModel(rig.model, profile);
  const output = new TimedOutput();
  const deps = { ...rig.deps, model, output, debateHistory };
  const log = newCouncilSession(
    { request: 'How should we store user sessions for our web app?', userId: 'bench', limits: LIMITS },
    deps,
  );
  const started = performance.now();
  let beforeDebate: SpendTotals | undefined;
  for (const [i, turn] of TURNS.entries()) {
    if (i === TURNS.length - 1) beforeDebate = log.spent;
    await runCouncilTurn(log, turn.command, deps);
    if (i < TURNS.length - 1 && log.state !== 'clarifying')
      fail(`${configuration.label}: after "${turn.label}" the session is ${log.state}`);
  }
  const wall = performance.now() - started;
  await model.settled();
  const session = sessionView(log.snapshot);
  if (log.state !== 'completed') fail(`${configuration.label}: the session ended in state ${log.state}`);
  if (session.answers.length !== QUESTIONS)
    fail(`${configuration.label}: ${session.answers.length} answers, expected ${QUESTIONS}`);
  if (log.requestsUsed !== model.calls.length)
    fail(
      `${configuration.label}: the session counted ${log.requestsUsed} requests, the model saw ${model.calls.length}`,
    );
  const answer = model.calls.find(c => c.step === 'answer') ?? fail(`${configuration.label}: no answer request`);
  const firstWord =
    output.writes.find(w => w.at >= answer.start && w.text.trim() !== '') ??
    fail(`${configuration.label}: no answer text reached the chat`);
  // Discarded speculation (thorough's drafts of a cycle that never ran) fed nothing: not part of any chain.
  const useful = model.calls.filter(c => c.outcome === 'ok');
  const bound = weightedCriticalPath(useful.map(c => ({ start: c.start, end: c.end, weight: c.nominalMs })));
  const last = session.discussions.at(-1);
  const stoppedBy =
    last?.status === 'limit_reached'
      ? 'cycle limit'
      : last?.status === 'concluded' && last.stoppedByBudget
        ? 'budget'
        : last?.status === 'concluded' && last.settledByFirstVote
          ? 'first vote'
          : last?.status === 'concluded' && last.stoppedByStableVote
            ? 'stable vote'
            : 'agreement';
  const note = output.writes.map(w => w.text).find(t => t.includes('This debate expects'));
  const forecast = /at most (\d+) more requests? and ([\d.]+)(k?) tokens/.exec(note ?? '');
  const expected = /expects about (\d+) more requests? and ([\d.]+)(k?) tokens/.exec(note ?? '');
  if (!forecast || !expected || !beforeDebate) fail(`${configuration.label}: no debate forecast was shown`);
  const again = output.progressLines
    .map(line =>
      /the debate now expects about (\d+) requests? and ([\d.]+)(k?) tokens.*; at most (\d+) requests? and ([\d.]+)(k?) tokens/.exec(
        line,
      ),
    )
    .find(match => match !== null);
  const spent = log.spent;
  return {
    calls: model.calls,
    spent,
    ledger: log.ledger.entries,
    forecast: { requests: Number(forecast[1]), tokens: Number(forecast[2]) * (forecast[3] === 'k' ? 1_000 : 1) },
    expected: { requests: Number(expected[1]), tokens: Number(expected[2]) * (expected[3] === 'k' ? 1_000 : 1) },
    reforecast: again ? { requests: Number(again[1]), tokens: tokensFrom(again[2]!, again[3]!) } : undefined,
    reforecastBound: again ? { requests: Number(again[4]), tokens: tokensFrom(again[5]!, again[6]!) } : undefined,
    debateSpent: {
      requests: spent.requests - beforeDebate.requests,
      tokens: spent.inputTokens + spent.outputTokens - beforeDebate.inputTokens - beforeDebate.outputTokens,
    },
    wallMs: wall / profile.scale,
    boundMs: bound.total,
    firstWordMs: (firstWord.at - answer.start) / profile.scale,
    debateCycles: session.debateCycles,
    stoppedBy,
  };
}

/** A debate history store over a fixed list of outcomes (it keeps none added). */
function fixedHistory(outcomes: readonly DebateOutcome[]): DebateHistoryStore {
  return { read: () => outcomes, remember: () => {} };
}

/**
 * The expected figure the chat shows before the debate of `configuration`'s session, on the scripted model without
 * latency, with `history` as the workspace's finished debates (a memory store also keeps this one's outcome);
 * `withoutRead`: the opening gives no read, as a model that omits the optional field.
 */
async function expectedShown(
  configuration: Configuration,
  history: DebateHistoryStore,
  withoutRead = false,
): Promise<{ readonly requests: number; readonly tokens: number }> {
  const { outlook, ...rest } = configuration.script;
  const script: CouncilScriptOptions = {
    personaIds: PERSONA_IDS,
    questions: QUESTIONS,
    decisionOptions: true,
    ...rest,
    ...(outlook && !withoutRead ? { outlook } : {}),
  };
  const rig = await councilRig({
    script,
    responder: benchResponder(script),
    protocol: configuration.protocol,
    ...(configuration.maxRequests !== undefined ? { maxRequests: configuration.maxRequests } : {}),
  });
  const deps = { ...rig.deps, debateHistory: history };
  const log = newCouncilSession(
    { request: 'How should we store user sessions for our web app?', userId: 'bench', limits: LIMITS },
    deps,
  );
  for (const turn of TURNS) await runCouncilTurn(log, turn.command, deps);
  const shown = /expects about (\d+) more requests? and ([\d.]+)(k?) tokens/.exec(rig.output.text);
  if (!shown) fail(`${configuration.label}: no expected figure was shown`);
  return { requests: Number(shown[1]), tokens: tokensFrom(shown[2]!, shown[3]!) };
}

/**
 * The expected figures of every case besides the main runs': without a read, and after a mixed history (one
 * finished debate of each case of the same protocol, this one's included), the workspace a user's habits make.
 */
async function otherForecasts(): Promise<{
  readonly withoutRead: readonly Run['expected'][];
  readonly mixed: readonly Run['expected'][];
}> {
  const outcomes = new Map<DebateProtocol, DebateOutcome[]>();
  for (const configuration of CONFIGURATIONS) {
    const store = memoryHistory();
    await expectedShown(configuration, store);
    outcomes.set(configuration.protocol, [...(outcomes.get(configuration.protocol) ?? []), ...store.read()]);
  }
  const withoutRead: Run['expected'][] = [];
  const mixed: Run['expected'][] = [];
  for (const configuration of CONFIGURATIONS) {
    withoutRead.push(await expectedShown(configuration, fixedHistory([]), true));
    mixed.push(await expectedShown(configuration, fixedHistory(outcomes.get(configuration.protocol) ?? [])));
  }
  return { withoutRead, mixed };
}

/**
 * One case with a failure injected (the Security Expert's first draft, or the answer's request), on the scripted
 * model without latency: how many requests it made and what the user was shown.
 */
async function degradedRun(
  configuration: Configuration,
  failure: 'one seat failing' | "the answer's request failing",
): Promise<string> {
  const script: CouncilScriptOptions = {
    personaIds: PERSONA_IDS,
    questions: 0,
    decisionOptions: true,
    ...configuration.script,
  };
  const rig = await councilRig({
    script,
    responder: councilResponder(script, (step, request) => {
      const prompt = request.messages.map(messageText).join('\n');
      const failSeat =
        failure === 'one seat failing' &&
        step === 'contribute_to_debate' &&
        speakerOf(prompt) === 'Security Expert' &&
        prompt.includes('This is debate cycle 1.');
      if (failSeat || (failure !== 'one seat failing' && step === ANSWER_STEP))
        return { kind: 'error', error: new LanguageModelFailure('unknown', 'Service unavailable.') };
      return undefined;
    }),
    ...(configuration.maxRequests !== undefined ? { maxRequests: configuration.maxRequests } : {}),
  });
  const log = newCouncilSession(
    { request: 'How should we store user sessions for our web app?', userId: 'bench', limits: LIMITS },
    rig.deps,
  );
  await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
  const text = rig.output.text;
  const shown = /\d of \d personas answered[^._]*/.exec(text)?.[0] ?? /Written from the vote[^.]*/.exec(text)?.[0];
  const answered = text.includes("## The council's answer") && text.includes('### Where each persona landed');
  return `${rig.model.requests.length} requests, session ${log.state}, answer shown: ${answered ? 'yes' : 'NO'}${shown ? ` ("${shown}")` : ''}`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Left-aligned text columns, right-aligned numeric ones, with a rule under the header. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => (r[i] ?? '').length)));
  const numeric = header.map(
    (_, i) => rows.length > 0 && rows.every(r => /^[-+]?[\d.,]+\s*(ms|x|%|s)?$|^$/.test(r[i] ?? '')),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map(w => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The figures of one configuration (the call graph is deterministic; timings are medians over the runs). */
interface Figures {
  readonly label: string;
  readonly byStep: Readonly<Record<Step, number>>;
  readonly requests: number;
  readonly spent: SpendTotals;
  /** Credits of the same session with diverse seats. */
  readonly diverseCredits: string;
  readonly forecast: Run['forecast'];
  /** (a) the first session's expected figure, without history; (b) after the earlier runs' history; (c) after the first vote. */
  readonly expectedFirst: Run['expected'];
  readonly expected: Run['expected'];
  readonly reforecast: Run['reforecast'];
  readonly reforecastBound: Run['reforecastBound'];
  readonly debateSpent: Run['debateSpent'];
  readonly promptTokens: number;
  readonly promptTokensPerContribution: number;
  readonly outputTokens: number;
  readonly wallMs: number;
  readonly boundMs: number;
  readonly ratio: number;
  readonly firstWordMs: number;
  readonly debateCycles: number;
  readonly stoppedBy: string;
}

function figures(label: string, runs: readonly Run[]): Figures {
  const first = runs[0]!;
  for (const run of runs) {
    if (run.calls.length !== first.calls.length) fail(`${label}: the number of requests differs between runs`);
  }
  const byStep = Object.fromEntries(
    [...STEPS, 'other'].map(s => [s, first.calls.filter(c => c.step === s).length]),
  ) as Record<Step, number>;
  return {
    label,
    byStep,
    requests: first.calls.length,
    spent: first.spent,
    diverseCredits: diverseCredits(first.ledger),
    forecast: first.forecast,
    expectedFirst: first.expected,
    expected: runs.at(-1)!.expected,
    reforecast: runs.at(-1)!.reforecast,
    reforecastBound: runs.at(-1)!.reforecastBound,
    debateSpent: first.debateSpent,
    promptTokens: first.calls.reduce((sum, c) => sum + c.promptTokens, 0),
    promptTokensPerContribution: Math.round(
      first.calls.filter(c => c.step === 'contribute').reduce((sum, c) => sum + c.promptTokens, 0) /
        Math.max(1, byStep.contribute),
    ),
    outputTokens: first.calls.reduce((sum, c) => sum + c.outputTokens, 0),
    wallMs: median(runs.map(r => r.wallMs)),
    boundMs: median(runs.map(r => r.boundMs)),
    ratio: median(runs.map(r => r.wallMs / r.boundMs)),
    firstWordMs: median(runs.map(r => r.firstWordMs)),
    debateCycles: first.debateCycles,
    stoppedBy: first.stoppedBy,
  };
}

/** The paid Copilot families a diverse council seats personas on, cheapest first (the utility models left out). */
const DIVERSE_FAMILIES = ['gpt-5-mini', 'gemini-3.1-pro', 'claude-sonnet-4.6'] as const;

/**
 * What the same session would cost with `council.models.diverse`: each persona's tokens at the price of the family
 * its seat gets (in turn over DIVERSE_FAMILIES), the rest (opening, answer) at the dearest price point.
 */
function diverseCredits(ledger: readonly LedgerLine[]): string {
  const personas = [...new Set(ledger.filter(l => /cycle/.test(l.step)).map(l => l.who))];
  const dearest = PRICE_POINTS.at(-1)!.price;
  const credits = ledger.reduce((sum, line) => {
    const seat = personas.indexOf(line.who);
    const family = seat < 0 ? undefined : DIVERSE_FAMILIES[seat % DIVERSE_FAMILIES.length]!;
    const price = family ? (DEFAULT_COPILOT_PRICES[family] ?? dearest) : dearest;
    return sum + creditsFor(price, line.inputTokens, line.outputTokens);
  }, 0);
  return creditsText(credits);
}

/** The debate's forecast covered what it spent (nothing failed in the bench). */
function forecastHolds(f: Figures): boolean {
  const holds = (bound: { readonly requests: number; readonly tokens: number }) =>
    bound.requests >= f.debateSpent.requests && bound.tokens >= f.debateSpent.tokens;
  return holds(f.forecast) && (f.reforecastBound === undefined || holds(f.reforecastBound));
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** `forecast` ÷ what the debate spent, requests / tokens. */
function spentRatio(forecast: { readonly requests: number; readonly tokens: number }, f: Figures): string {
  return `${(forecast.requests / f.debateSpent.requests).toFixed(2)} / ${(forecast.tokens / f.debateSpent.tokens).toFixed(2)}`;
}

export async function main(): Promise<{
  readonly name: 'council';
  readonly figures: readonly Figures[];
  readonly summary: readonly SummaryRow[];
}> {
  checkCriticalPath();
  const profile = latencyProfileFromEnv();
  const runs = benchRunsFromEnv();
  const all: Figures[] = [];
  for (const configuration of CONFIGURATIONS) {
    const results: Run[] = [];
    const history = memoryHistory();
    for (let i = 0; i < runs; i++) results.push(await runOnce(configuration, profile, history));
    all.push(figures(configuration.label, results));
  }
  const others = await otherForecasts();

  const column = (pick: (f: Figures) => string) => all.map(pick);
  const rows: string[][] = [
    ...[...STEPS, 'other' as const]
      .filter(step => all.some(f => f.byStep[step] > 0))
      .map(step => [`requests: ${step}`, ...column(f => String(f.byStep[step]))]),
    ['requests in all', ...column(f => String(f.requests))],
    ['prompt tokens (messages)', ...column(f => String(f.promptTokens))],
    ['prompt tokens per contribution (mean)', ...column(f => String(f.promptTokensPerContribution))],
    ['input tokens billed (messages + tool schemas)', ...column(f => String(f.spent.inputTokens))],
    ['output tokens', ...column(f => String(f.spent.outputTokens))],
    [PRICE_POINTS_LABEL, ...column(f => creditsAtPricePoints(f.spent.inputTokens, f.spent.outputTokens))],
    [`credits, diverse seats (${DIVERSE_FAMILIES.join(' · ')}; the rest at $3/$15)`, ...column(f => f.diverseCredits)],
    [
      "(a) debate forecast, expected, no history (with the opening's read): requests / tokens",
      ...column(f => `${f.expectedFirst.requests} / ${f.expectedFirst.tokens}`),
    ],
    [
      '(b) expected after the earlier runs of this case: requests / tokens',
      ...column(f => `${f.expected.requests} / ${f.expected.tokens}`),
    ],
    [
      '(c) re-forecast after the first vote: requests / tokens',
      ...column(f => (f.reforecast ? `${f.reforecast.requests} / ${f.reforecast.tokens}` : '—')),
    ],
    ['debate forecast, at most: requests / tokens', ...column(f => `${f.forecast.requests} / ${f.forecast.tokens}`)],
    ['debate spent: requests / tokens', ...column(f => `${f.debateSpent.requests} / ${f.debateSpent.tokens}`)],
    [
      "(a) expected ÷ spent, no history, with the opening's read (aim 0.8–1.25)",
      ...column(f => spentRatio(f.expectedFirst, f)),
    ],
    [
      '(a) expected ÷ spent, no history and no read (the model gave none)',
      ...all.map((f, i) => spentRatio(others.withoutRead[i]!, f)),
    ],
    ['(b) expected ÷ spent, after earlier runs of this case (aim 0.8–1.25)', ...column(f => spentRatio(f.expected, f))],
    [
      '(b) expected ÷ spent, after one run of each case of this protocol (aim 0.8–1.25)',
      ...all.map((f, i) => spentRatio(others.mixed[i]!, f)),
    ],
    ['(c) re-forecast ÷ spent (aim 0.8–1.25)', ...column(f => (f.reforecast ? spentRatio(f.reforecast, f) : '—'))],
    [
      '(c) re-forecast, at most ÷ spent (≥ 1)',
      ...column(f => (f.reforecastBound ? spentRatio(f.reforecastBound, f) : '—')),
    ],
    [
      'at most ÷ spent: requests / tokens (≥ 1)',
      ...column(
        f =>
          `${(f.forecast.requests / f.debateSpent.requests).toFixed(2)} / ${(f.forecast.tokens / f.debateSpent.tokens).toFixed(2)}`,
      ),
    ],
    ['debate cycles (ended by)', ...column(f => `${f.debateCycles} (${f.stoppedBy})`)],
    ['wall time, whole session', ...column(f => s(f.wallMs))],
    ['critical-path bound', ...column(f => s(f.boundMs))],
    ['wall / bound', ...column(f => `${f.ratio.toFixed(2)}x`)],
    ['first answer word after its request starts', ...column(f => `${f.firstWordMs.toFixed(0)} ms`)],
  ];
  const [agree, settled, contested] = all as [Figures, Figures, Figures];
  const targets = [
    `first drafts agree <= 6 requests: ${agree.requests} ${agree.requests <= 6 ? 'met' : 'MISSED'}`,
    `contested and settled <= 10 requests: ${settled.requests} ${settled.requests <= 10 ? 'met' : 'MISSED'}`,
    `requests <= 12 (every case with the default budget): ${all.every((f, i) => CONFIGURATIONS[i]?.maxRequests !== 12 || f.requests <= 12) ? 'met' : 'MISSED'}`,
    `prompt tokens of the contested default <= 12,000: ${settled.promptTokens} ${settled.promptTokens <= 12_000 ? 'met' : 'MISSED'}`,
    `first visible word <= TTFT + 100 ms (${profile.ttftMs + 100} ms): ${contested.firstWordMs.toFixed(0)} ms ${contested.firstWordMs <= profile.ttftMs + 100 ? 'met' : 'MISSED'}`,
    `wall / bound <= 1.10: ${contested.ratio.toFixed(2)}x ${contested.ratio <= 1.1 ? 'met' : 'MISSED'}`,
    `forecast >= spent (every configuration): ${
      all.every(forecastHolds)
        ? 'met'
        : `MISSED (${all
            .filter(f => !forecastHolds(f))
            .map(f => f.label)
            .join(', ')})`
    }`,
  ];
  const degraded: string[] = [];
  for (const configuration of ECONOMY)
    for (const failure of ['one seat failing', "the answer's request failing"] as const)
      degraded.push(`${configuration.label}, ${failure}: ${await degradedRun(configuration, failure)}`);
  console.log(
    [
      `Council bench: ${PERSONA_IDS.length} personas, ${QUESTIONS} questions answered, the decision's options named, budget 12 requests unless the case says (cycle limit ${LIMITS.debateCycleLimit}); ` +
        `TTFT ${profile.ttftMs} ms, ${profile.tokensPerSecond} tokens/s, time scale ${profile.scale}, ${runs} runs (medians, model time)`,
      '',
      formatTable(['', ...all.map(f => f.label)], rows),
      '',
      `targets: ${targets.join('; ')}`,
      '',
      'degraded (scripted model, no latency):',
      ...degraded.map(line => `  ${line}`),
    ].join('\n'),
  );
  const summary: SummaryRow[] = [
    ...all.map(f => ({
      metric: f.label,
      value: `${f.requests} requests · ${f.promptTokens} prompt tokens · ${creditsAtPricePoints(f.spent.inputTokens, f.spent.outputTokens)} credits · ${f.debateCycles} cycle${f.debateCycles === 1 ? '' : 's'} (${f.stoppedBy})`,
    })),
    {
      metric: 'credits with diverse seats (gpt-5-mini · gemini-3.1-pro · claude-sonnet-4.6)',
      value: all.map(f => f.diverseCredits).join(' / '),
    },
    { metric: 'forecast >= spent', value: all.map(f => (forecastHolds(f) ? 'yes' : 'NO')).join(' / ') },
    { metric: 'wall / bound', value: all.map(f => `${f.ratio.toFixed(2)}x`).join(' / ') },
    {
      metric: 'first answer word after its request starts',
      value: all.map(f => `${f.firstWordMs.toFixed(0)} ms`).join(' / '),
    },
    ...degraded.map(line => ({ metric: 'degraded', value: line })),
  ];
  return { name: 'council', figures: all, summary };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
