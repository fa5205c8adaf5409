/**
 * A model that takes as long as a real one: each call waits time-to-first-token, then streams its output at a
 * token rate, with output lengths typical of each council step (or, for deep work, as long as the scripted reply
 * is). The replies themselves come from a scripted model; only the timing is modelled. A time scale shrinks every
 * delay so a run takes seconds; figures are reported in model time (divided back by the scale).
 */
import {
  throwIfCancelled,
  type CancellationSignal,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
} from '../src/core/llm/languageModel';
import { messageText } from '../src/core/llm/usage';
import { councilStep } from '../test/support/councilScript';
import { requestedName } from '../test/support/scriptedModel';

/** The council's model steps. */
export const STEPS = ['open', 'select', 'clarify', 'contribute', 'moderate', 'conclude', 'answer'] as const;
export type Step = (typeof STEPS)[number] | 'other';

const STEP_OF: Readonly<Record<string, Step>> = {
  open_session: 'open',
  select_personas: 'select',
  propose_clarifying_questions: 'clarify',
  contribute_to_debate: 'contribute',
  moderate_cycle: 'moderate',
  give_conclusion: 'conclude',
  write_answer: 'answer',
};

/**
 * Output tokens a real model writes per step (why: a selection is ids plus one sentence; two ranked questions with
 * recommended answers and rationales are ~200; a contribution is a position, a few paragraphs and concerns; a
 * verdict is a summary and open points; the answer is a recommendation, reasons, disagreements and next steps).
 */
export const TYPICAL_OUTPUT_TOKENS: Readonly<Record<Step, number>> = {
  open: 260,
  select: 60,
  clarify: 200,
  contribute: 350,
  moderate: 120,
  conclude: 250,
  answer: 600,
  other: 100,
};

export interface LatencyProfile {
  /** Time to the first token, ms (model time). */
  readonly ttftMs: number;
  readonly tokensPerSecond: number;
  /** Real delay = model time × scale. */
  readonly scale: number;
}

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

/** The profile every bench runs under: BENCH_TTFT_MS (800), BENCH_TOKENS_PER_S (60), BENCH_TIME_SCALE (0.05). */
export function latencyProfileFromEnv(): LatencyProfile {
  return {
    ttftMs: numberFromEnv('BENCH_TTFT_MS', 800),
    tokensPerSecond: numberFromEnv('BENCH_TOKENS_PER_S', 60),
    scale: numberFromEnv('BENCH_TIME_SCALE', 0.05),
  };
}

/** BENCH_RUNS (3): how many times each bench case runs (timings are medians). */
export function benchRunsFromEnv(): number {
  return Math.round(numberFromEnv('BENCH_RUNS', 3));
}

/** One call as the timed model saw it; times in real ms from `performance.now()`. */
export interface TimedCall {
  /** The council step, or for deep work the reply's tool (`explore` for a request offering the workspace tools). */
  readonly step: string;
  readonly start: number;
  firstTextAt: number;
  end: number;
  /** What the call takes in model time when nothing else is going on: TTFT + output ÷ rate. */
  nominalMs: number;
  outputTokens: number;
  outcome: 'pending' | 'ok' | 'cancelled' | 'failed';
  promptTokens: number;
}

/** How long each reply is, in output tokens: a typical length per step, or the scripted reply's own. */
export interface ReplyLength {
  stepOf(request: ModelRequest): string;
  /** `reply` is the scripted reply's text and tool-call inputs, as the model would write them. */
  outputTokens(step: string, reply: string): Promise<number>;
}

/** The council: the step's typical length (its scripted replies are shorter than a real model's). */
export const COUNCIL_REPLIES: ReplyLength = {
  stepOf,
  outputTokens: async step => TYPICAL_OUTPUT_TOKENS[step as Step] ?? TYPICAL_OUTPUT_TOKENS.other,
};

/**
 * Deep work: as long as the scripted reply (the bench's reports cite real snippets, so they weigh what a report
 * would), counted by `count`; a step is the tool the request asks for, `explore` when it offers the workspace tools.
 */
export function scriptedReplies(count: (text: string) => Promise<number>): ReplyLength {
  return {
    stepOf: request =>
      request.tools?.some(tool => tool.name === 'read_file_range')
        ? 'explore'
        : request.tools?.length === 1
          ? request.tools[0]!.name
          : requestedName(request) || 'prose',
    outputTokens: async (_step, reply) => (reply === '' ? 0 : count(reply)),
  };
}

function delay(ms: number, token: CancellationSignal): Promise<void> {
  return new Promise(resolve => {
    const timer = setTimeout(resolve, ms);
    token.onCancellationRequested(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The step a request is for (tool or JSON format name, or the prose answer). */
export function stepOf(request: ModelRequest): Step {
  return STEP_OF[councilStep(requestedName(request), request.messages.map(messageText).join('\n'))] ?? 'other';
}

/** Wraps `inner` (a scripted council) with the latency profile; records every call. */
export class LatencyModel implements LanguageModel {
  readonly calls: TimedCall[] = [];
  private readonly counting: Promise<unknown>[] = [];

  constructor(
    private readonly inner: LanguageModel,
    private readonly profile: LatencyProfile,
    private readonly replies: ReplyLength = COUNCIL_REPLIES,
  ) {}

  get id() {
    return this.inner.id;
  }
  get name() {
    return this.inner.name;
  }
  get family() {
    return this.inner.family;
  }
  get vendor() {
    return this.inner.vendor;
  }
  get maxInputTokens() {
    return this.inner.maxInputTokens;
  }
  get supportsToolCalling() {
    return this.inner.supportsToolCalling;
  }

  countTokens(text: string, token?: CancellationSignal): Promise<number> {
    return this.inner.countTokens(text, token);
  }

  async *sendRequest(request: ModelRequest, token: CancellationSignal): AsyncIterable<ResponsePart> {
    const step = this.replies.stepOf(request);
    const { ttftMs, tokensPerSecond, scale } = this.profile;
    const call: TimedCall = {
      step,
      start: performance.now(),
      firstTextAt: Number.NaN,
      end: Number.NaN,
      nominalMs: ttftMs,
      outputTokens: 0,
      outcome: 'pending',
      promptTokens: 0,
    };
    this.calls.push(call);
    this.counting.push(
      this.inner.countTokens(request.messages.map(messageText).join('\n')).then(n => (call.promptTokens = n)),
    );
    try {
      // The scripted reply is ready at once; the time it "takes" is modelled below.
      const parts: ResponsePart[] = [];
      for await (const part of this.inner.sendRequest(request, token)) parts.push(part);
      const text = parts.flatMap(p => (p.kind === 'text' ? [p.text] : [])).join('');
      const toolCalls = parts.filter(p => p.kind === 'toolCall');
      const outputTokens = await this.replies.outputTokens(
        step,
        text + toolCalls.map(call => JSON.stringify(call.input)).join(''),
      );
      call.outputTokens = outputTokens;
      call.nominalMs = ttftMs + (outputTokens / tokensPerSecond) * 1000;
      await delay(ttftMs * scale, token);
      throwIfCancelled(token);
      // Text streams in ~10 chunks: the first at TTFT, the last when the output time is over; tool-call input
      // arrives whole at the end.
      const chunks = text === '' ? [] : splitInto(text, 10);
      const perChunk = ((outputTokens / tokensPerSecond) * 1000 * scale) / Math.max(1, chunks.length - 1);
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0) await delay(perChunk, token);
        throwIfCancelled(token);
        if (Number.isNaN(call.firstTextAt)) call.firstTextAt = performance.now();
        yield { kind: 'text', text: chunk };
      }
      if (toolCalls.length > 0) {
        await delay((outputTokens / tokensPerSecond) * 1000 * scale, token);
        throwIfCancelled(token);
        yield* toolCalls;
      }
      call.outcome = 'ok';
    } catch (error) {
      call.outcome = token.isCancellationRequested ? 'cancelled' : 'failed';
      throw error;
    } finally {
      call.end = performance.now();
      if (call.outcome === 'pending') call.outcome = token.isCancellationRequested ? 'cancelled' : 'failed';
    }
  }

  /** Waits for every call's prompt-token count. */
  settled(): Promise<unknown> {
    return Promise.all(this.counting);
  }
}

function splitInto(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
