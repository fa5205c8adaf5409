/**
 * Council benchmark: one scripted session (4 personas, 2 clarifying questions answered, 3 debate
 * cycles, synthesis) against a model with a fixed latency per call, compared with the critical-path
 * lower bound computed from the calls that actually happened.
 *
 *   npx tsx bench/council.bench.ts            (BENCH_LATENCY_MS=100 by default)
 */
import { pathToFileURL } from 'node:url';
import { newCouncilSession, runCouncilTurn } from '../src/core/council/councilTurn';
import type { CouncilCommand } from '../src/core/council/commands';
import { CancelledError, type CancellationSignal, type LanguageModel, type ModelRequest, type ResponsePart } from '../src/core/llm/languageModel';
import { countPromptTokens, messageText } from '../src/core/llm/usage';
import { sessionView } from '../src/core/session/selectors';
import { councilRig } from '../test/support/councilHarness';
import { requestedName } from '../test/support/scriptedModel';
import { checkCriticalPath, criticalPath } from './criticalPath';

const PERSONA_IDS = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'] as const;
const CYCLES = 3;
const QUESTIONS = 2;
const RUNS = 3;
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 10, adminMaxDebateCycles: 20 };
const TURNS: readonly { readonly label: string; readonly command: CouncilCommand }[] = [
  { label: 'start (select + clarify)', command: { kind: 'resume' } },
  { label: 'answer question 1', command: { kind: 'answer', text: 'Latency matters most.' } },
  { label: 'answer question 2 (debate + final)', command: { kind: 'answer', text: 'At most two weeks of work.' } },
];

/** The council's model steps, by the structured reply each one asks for. */
export const STEPS = ['select', 'clarify', 'contribute', 'moderate', 'synthesize'] as const;
export type Step = (typeof STEPS)[number] | 'other';
const STEP_OF: Readonly<Record<string, Step>> = {
  select_personas: 'select',
  propose_clarifying_questions: 'clarify',
  contribute_to_debate: 'contribute',
  moderate_cycle: 'moderate',
  give_conclusion: 'synthesize',
  write_final_answer: 'synthesize',
};

/** One model call as the instrumented model saw it. */
export interface CallRecord {
  readonly step: Step;
  readonly turn: number;
  /** For contributions: the debate cycle the prompt asks for. */
  readonly cycle: number | undefined;
  readonly start: number;
  end: number;
  outcome: 'pending' | 'ok' | 'cancelled' | 'failed';
  promptTokens: number;
}

/** The cycle a debate-turn prompt asks for (the DebateTurnPrompt wording the scripted council also relies on). */
function debateCycleOf(request: ModelRequest): number {
  const match = /This is debate cycle (\d+)/.exec(request.messages.map(messageText).join('\n'));
  if (!match?.[1]) fail('a contribute_to_debate prompt does not say which debate cycle it is for');
  return Number(match[1]);
}

/** Wraps a model and records when each call started and ended, how it ended, and its prompt size. */
class TimedModel implements LanguageModel {
  readonly calls: CallRecord[] = [];
  turn = 0;
  private readonly counting: Promise<unknown>[] = [];

  constructor(private readonly inner: LanguageModel) {}

  get id() { return this.inner.id; }
  get name() { return this.inner.name; }
  get family() { return this.inner.family; }
  get vendor() { return this.inner.vendor; }
  get maxInputTokens() { return this.inner.maxInputTokens; }
  get supportsToolCalling() { return this.inner.supportsToolCalling; }

  countTokens(text: string, token?: CancellationSignal): Promise<number> {
    return this.inner.countTokens(text, token);
  }

  async *sendRequest(request: ModelRequest, token: CancellationSignal): AsyncIterable<ResponsePart> {
    const step = STEP_OF[requestedName(request) ?? ''] ?? 'other';
    const call: CallRecord = {
      step,
      turn: this.turn,
      cycle: step === 'contribute' ? debateCycleOf(request) : undefined,
      start: performance.now(),
      end: Number.NaN,
      outcome: 'pending',
      promptTokens: 0,
    };
    this.calls.push(call);
    // Counted the way collectReply counts for UsageTally, off the timed path.
    this.counting.push(countPromptTokens(this.inner, request.messages).then(n => (call.promptTokens = n)));
    try {
      yield* this.inner.sendRequest(request, token);
      call.outcome = 'ok';
    } catch (error) {
      call.outcome = error instanceof CancelledError || token.isCancellationRequested ? 'cancelled' : 'failed';
      throw error;
    } finally {
      call.end = performance.now();
      // The consumer stopped reading (return()) without an error reaching us.
      if (call.outcome === 'pending') call.outcome = token.isCancellationRequested ? 'cancelled' : 'failed';
    }
  }

  /** Waits for the prompt-token counts of every call. */
  settled(): Promise<unknown> {
    return Promise.all(this.counting);
  }
}

export interface CouncilBenchRun {
  /** Wall time of each turn, ms. */
  readonly turnWallMs: readonly number[];
  readonly totalWallMs: number;
  readonly debateTurnWallMs: number;
  /** Sequential model round-trips on the longest "ended before started" chain. */
  readonly chainTotal: number;
  readonly chainDebateTurn: number;
  /** Steps along one longest chain of the whole session. */
  readonly chainSteps: readonly Step[];
  readonly calls: number;
  /** Contributions drafted while a moderator was still reading the previous cycle. */
  readonly speculative: number;
  /** Speculative drafts of a cycle that never happened (never shown or recorded)... */
  readonly discarded: number;
  /** ...and how many of those were still in flight when cancelled (the others had already finished). */
  readonly cancelled: number;
  readonly failed: number;
  readonly promptTokens: number;
  readonly callsByStep: Readonly<Record<Step, number>>;
  readonly promptTokensByStep: Readonly<Record<Step, number>>;
  readonly discardedPromptTokens: number;
  /** First contribution's start to the last moderator's end, ms. */
  readonly debateWallMs: number;
  /** Debate+final turn: time the critical-path calls spent in the model, of which beyond the nominal latency (timer lag). */
  readonly debateTurnModelMs: number;
  readonly debateTurnTimerLagMs: number;
  /** Debate+final turn: wall time outside the critical-path model calls (the council's own work between round-trips). */
  readonly debateTurnOffModelMs: number;
}

export interface Stat {
  readonly min: number;
  readonly median: number;
}

/** A row of a summary table. */
export interface SummaryRow {
  readonly metric: string;
  readonly value: string;
}

export interface CouncilBenchResult {
  readonly name: 'council';
  readonly latencyMs: number;
  readonly personas: number;
  readonly cycles: number;
  readonly questions: number;
  readonly runs: readonly CouncilBenchRun[];
  readonly wallMs: { readonly total: Stat; readonly debateTurn: Stat };
  readonly lowerBoundMs: { readonly total: number; readonly debateTurn: number };
  /** Wall time / lower bound. */
  readonly ratio: { readonly total: Stat; readonly debateTurn: Stat };
  /** Debate wall time / cycles / latency. */
  readonly latenciesPerCycle: Stat;
  readonly summary: readonly SummaryRow[];
}

function latencyFromEnv(): number {
  const raw = process.env.BENCH_LATENCY_MS;
  if (raw === undefined || raw.trim() === '') return 100;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`BENCH_LATENCY_MS must be a positive number of milliseconds, got "${raw}"`);
  return value;
}

function stat(values: readonly number[]): Stat {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0]!, median };
}

function overlaps(a: CallRecord, b: CallRecord): boolean {
  return a.start < b.end && b.start < a.end;
}

function fail(message: string): never {
  throw new Error(`council bench: ${message}`);
}

async function runOnce(latencyMs: number): Promise<CouncilBenchRun> {
  const rig = await councilRig({
    script: { personaIds: PERSONA_IDS, questions: QUESTIONS, convergeAtCycle: CYCLES },
    model: { latencyMs },
  });
  const model = new TimedModel(rig.model);
  const deps = { ...rig.deps, model };
  const log = newCouncilSession({ request: 'How should we store user sessions for our web app?', userId: 'bench', limits: LIMITS }, deps);

  const turnWallMs: number[] = [];
  for (const [i, turn] of TURNS.entries()) {
    model.turn = i;
    const started = performance.now();
    await runCouncilTurn(log, turn.command, deps);
    turnWallMs.push(performance.now() - started);
    if (i < TURNS.length - 1 && log.state !== 'clarifying') fail(`after "${turn.label}" the session is ${log.state}, expected clarifying`);
  }
  await model.settled();

  // The session must have done what the bench claims to measure.
  const session = sessionView(log.snapshot);
  if (log.state !== 'completed') fail(`session ended in state ${log.state}`);
  if (session.debateCycles !== CYCLES) fail(`${session.debateCycles} debate cycles, expected ${CYCLES}`);
  if (session.answers.length !== QUESTIONS) fail(`${session.answers.length} answers, expected ${QUESTIONS}`);
  const seated = log.snapshot.context.participants.filter(p => p.type === 'persona').length;
  if (seated !== PERSONA_IDS.length) fail(`${seated} personas seated, expected ${PERSONA_IDS.length}`);
  if (model.calls.length !== rig.usage.calls) fail(`instrumented ${model.calls.length} calls, UsageTally counted ${rig.usage.calls}`);

  const calls = model.calls;
  const failed = calls.filter(c => c.outcome === 'failed').length;
  // Drafts for a cycle after the last one: speculation the converged moderator made moot.
  const discarded = calls.filter(c => c.cycle !== undefined && c.cycle > session.debateCycles);
  // Discarded work produced nothing anything waited for, so it is not part of any dependency chain.
  const used = calls.filter(c => c.outcome === 'ok' && !discarded.includes(c));
  const whole = criticalPath(used);
  const debateTurn = TURNS.length - 1;
  const inDebateTurn = used.filter(c => c.turn === debateTurn);
  const debateChain = criticalPath(inDebateTurn).chain.map(i => inDebateTurn[i]!);
  const debateTurnModelMs = debateChain.reduce((sum, c) => sum + (c.end - c.start), 0);
  const moderators = used.filter(c => c.step === 'moderate');
  const contributions = calls.filter(c => c.step === 'contribute');
  const perStep = () => Object.fromEntries([...STEPS, 'other'].map(s => [s, 0])) as Record<Step, number>;
  const callsByStep = perStep();
  const promptTokensByStep = perStep();
  for (const c of calls) {
    callsByStep[c.step] += 1;
    promptTokensByStep[c.step] += c.promptTokens;
  }
  const promptTokens = calls.reduce((sum, c) => sum + c.promptTokens, 0);
  if (promptTokens !== rig.usage.promptTokens) fail(`instrumented ${promptTokens} prompt tokens, UsageTally counted ${rig.usage.promptTokens}`);
  const firstContribution = Math.min(...contributions.filter(c => c.outcome === 'ok').map(c => c.start));
  const lastModerator = Math.max(...moderators.map(c => c.end));

  return {
    turnWallMs,
    totalWallMs: turnWallMs.reduce((a, b) => a + b, 0),
    debateTurnWallMs: turnWallMs[debateTurn]!,
    chainTotal: whole.length,
    chainDebateTurn: debateChain.length,
    chainSteps: whole.chain.map(i => used[i]!.step),
    calls: calls.length,
    speculative: contributions.filter(c => moderators.some(m => overlaps(c, m))).length,
    discarded: discarded.length,
    cancelled: discarded.filter(c => c.outcome === 'cancelled').length,
    failed,
    promptTokens,
    callsByStep,
    promptTokensByStep,
    discardedPromptTokens: discarded.reduce((sum, c) => sum + c.promptTokens, 0),
    debateWallMs: lastModerator - firstContribution,
    debateTurnModelMs,
    debateTurnTimerLagMs: debateTurnModelMs - debateChain.length * latencyMs,
    debateTurnOffModelMs: turnWallMs[debateTurn]! - debateTurnModelMs,
  };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;
const x = (n: number) => `${n.toFixed(2)}x`;

/** Left-aligned text columns, right-aligned numeric ones, with a rule under the header. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every(r => /^[-+]?[\d.,]+\s*(ms|x|%)?$|^$/.test(r[i] ?? '')));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map(w => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function sameEverywhere<T>(runs: readonly CouncilBenchRun[], pick: (r: CouncilBenchRun) => T, what: string): T {
  const first = pick(runs[0]!);
  for (const r of runs) if (JSON.stringify(pick(r)) !== JSON.stringify(first)) fail(`${what} differs between runs (${JSON.stringify(first)} vs ${JSON.stringify(pick(r))})`);
  return first;
}

export async function main(): Promise<CouncilBenchResult> {
  checkCriticalPath();
  const latencyMs = latencyFromEnv();
  const runs: CouncilBenchRun[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce(latencyMs));

  // The call graph is deterministic; only the timings vary.
  const chainTotal = sameEverywhere(runs, r => r.chainTotal, 'critical path');
  const chainDebate = sameEverywhere(runs, r => r.chainDebateTurn, 'debate-turn critical path');
  // Which of two concurrent equal-length branches the chain goes through may vary; its length may not.
  const chainSteps = runs[0]!.chainSteps;
  const calls = sameEverywhere(runs, r => r.calls, 'call count');
  const speculative = sameEverywhere(runs, r => r.speculative, 'speculative call count');
  const discarded = sameEverywhere(runs, r => r.discarded, 'discarded call count');
  const cancelledStat = stat(runs.map(r => r.cancelled));
  const promptTokens = sameEverywhere(runs, r => r.promptTokens, 'prompt tokens');
  const byStep = sameEverywhere(runs, r => r.promptTokensByStep, 'prompt tokens per step');
  const callsByStep = sameEverywhere(runs, r => r.callsByStep, 'calls per step');
  const discardedTokens = sameEverywhere(runs, r => r.discardedPromptTokens, 'discarded prompt tokens');
  const failed = sameEverywhere(runs, r => r.failed, 'failed call count');

  const lowerBoundMs = { total: chainTotal * latencyMs, debateTurn: chainDebate * latencyMs };
  const wallMs = { total: stat(runs.map(r => r.totalWallMs)), debateTurn: stat(runs.map(r => r.debateTurnWallMs)) };
  const ratioOf = (s: Stat, bound: number): Stat => ({ min: s.min / bound, median: s.median / bound });
  const ratio = { total: ratioOf(wallMs.total, lowerBoundMs.total), debateTurn: ratioOf(wallMs.debateTurn, lowerBoundMs.debateTurn) };
  const latenciesPerCycle = stat(runs.map(r => r.debateWallMs / CYCLES / latencyMs));

  const summary: SummaryRow[] = [
    { metric: 'wall, all turns (min / median)', value: `${ms(wallMs.total.min)} / ${ms(wallMs.total.median)}` },
    { metric: 'lower bound, all turns', value: `${chainTotal} x ${latencyMs} ms = ${ms(lowerBoundMs.total)}` },
    { metric: 'wall / bound, all turns (min / median)', value: `${x(ratio.total.min)} / ${x(ratio.total.median)}` },
    { metric: 'wall, debate+final turn (min / median)', value: `${ms(wallMs.debateTurn.min)} / ${ms(wallMs.debateTurn.median)}` },
    { metric: 'lower bound, debate+final turn', value: `${chainDebate} x ${latencyMs} ms = ${ms(lowerBoundMs.debateTurn)}` },
    { metric: 'wall / bound, debate+final (min / median)', value: `${x(ratio.debateTurn.min)} / ${x(ratio.debateTurn.median)}` },
    { metric: 'one debate cycle (min / median)', value: `${latenciesPerCycle.min.toFixed(2)} / ${latenciesPerCycle.median.toFixed(2)} latencies` },
    { metric: 'model calls', value: String(calls) },
    { metric: 'speculative drafts (of which discarded)', value: `${speculative} (${discarded})` },
    { metric: 'discarded drafts cancelled in flight (min / median)', value: `${cancelledStat.min} / ${cancelledStat.median} of ${discarded}` },
    { metric: 'prompt tokens (discarded)', value: `${promptTokens} (${discardedTokens})` },
  ];

  const label = `Council bench: ${PERSONA_IDS.length} personas x ${CYCLES} cycles, ${QUESTIONS} questions answered, ${latencyMs} ms per call, ${RUNS} runs`;
  const out: string[] = [label, ''];
  out.push(formatTable(
    ['run', ...TURNS.map((_, i) => `turn ${i + 1}`), 'all turns', 'x bound', 'debate span', 'turn 3 model', 'timer lag', 'off-model'],
    runs.map((r, i) => [
      String(i + 1),
      ...r.turnWallMs.map(ms),
      ms(r.totalWallMs),
      x(r.totalWallMs / lowerBoundMs.total),
      ms(r.debateWallMs),
      ms(r.debateTurnModelMs),
      ms(r.debateTurnTimerLagMs),
      ms(r.debateTurnOffModelMs),
    ]),
  ));
  out.push('', `turns: ${TURNS.map((t, i) => `${i + 1} = ${t.label}`).join('; ')}`);
  out.push(`debate span: first contribution to last moderator verdict; turn 3 model: time in the ${chainDebate} critical-path calls`);
  out.push('(timer lag: beyond the nominal latency); off-model: turn 3 wall time outside those calls (rendering, validation, recording)');
  out.push(`critical path (${chainTotal} round-trips): ${chainSteps.join(' -> ')}`, '');
  out.push(formatTable(['metric', 'value'], summary.map(r => [r.metric, r.value])), '');
  out.push(formatTable(
    ['step', 'calls', 'prompt tokens', 'share'],
    [...STEPS, ...(callsByStep.other > 0 ? (['other'] as const) : [])].map(step => [
      step,
      String(callsByStep[step]),
      String(byStep[step]),
      `${((100 * byStep[step]) / promptTokens).toFixed(1)}%`,
    ]),
  ));
  if (failed > 0) out.push('', `warning: ${failed} model call(s) failed`);
  console.log(out.join('\n'));

  return {
    name: 'council',
    latencyMs,
    personas: PERSONA_IDS.length,
    cycles: CYCLES,
    questions: QUESTIONS,
    runs,
    wallMs,
    lowerBoundMs,
    ratio,
    latenciesPerCycle,
    summary,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
