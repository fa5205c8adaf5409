import { isSchemaRefusal } from '../modelErrors';
import { CancellationScope } from '../cancellationScope';
import {
  LanguageModelFailure,
  withSendRequest,
  type CancellationSignal,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
} from '../languageModel';
import { messageText } from '../usage';
import { addCharge, NO_SPEND, type SpendCharge, type SpendingLedger, type SpendTotals } from './ledger';
import { creditsFor, type PriceBook } from './prices';
import { SETTINGS_ADVICE, sentenceStart, type LimitAdvice, type LimitedWork, type RaisableLimit } from './limitAdvice';
import { amountText, costText, leftText, tokensText } from './spendText';

/** Limits of one scope (a session, a run, a script); an absent limit does not apply. */
export interface SpendingLimits {
  /** Estimated AI credits (applies to models whose price is known). */
  readonly maxCredits?: number;
  /** Requests: the backstop that applies whatever the price. */
  readonly maxRequests?: number;
  /** Input plus output tokens (scripts). */
  readonly maxTokens?: number;
}

/** Who is spending, in the words a refusal uses. */
export interface SpendingScope {
  /** "This session", "This /plan run", "This script". */
  readonly subject: string;
  /** Which limit each of the scope's measures is (the door's advice says how to raise it). */
  readonly limits: {
    readonly credits?: RaisableLimit;
    readonly requests?: RaisableLimit;
    readonly tokens?: RaisableLimit;
  };
  /** What the limit stops, for how to go on once it is raised. */
  readonly work: LimitedWork;
}

/** Output tokens a request is assumed to need when it is checked against a credit limit before it is sent. */
export const OUTPUT_RESERVE_TOKENS = 1_000;

const CUT = 'The last reply was cut off at the limit.';

/** How a request too large for its model is described (its message is shown as it is). */
export const TOO_LARGE_PREFIX = 'This request needs';

/** Characters per token while a reply streams (the exact count is taken when it ends). */
const CHARS_PER_TOKEN = 4;

interface GovernorOptions {
  readonly limits: SpendingLimits;
  readonly scope: SpendingScope;
  /** How this door says to raise a limit and go on (shared with child scopes); default: VS Code's settings. */
  readonly advice?: LimitAdvice;
  readonly prices: PriceBook;
  /** Where every request is recorded; shared with child scopes. */
  readonly ledger: SpendingLedger;
  /** What this scope spent before (a session's earlier turns); default: nothing. */
  readonly spentBefore?: SpendTotals;
  /** The step requests are charged to when the caller names none (e.g. the session's current cycle). */
  readonly step?: () => string;
  /** Called after each request with this scope's totals (progress lines, persisting the ledger). */
  readonly onSpend?: (totals: SpendTotals) => void;
  /**
   * The credits the scope's next request is expected to reserve (its input and OUTPUT_RESERVE_TOKENS out), for
   * planning: without it the planners assume the mean cost so far (nothing before the first request).
   */
  readonly requestCredits?: () => number | undefined;
  /** The credits the scope's next request is expected to cost once it ends (planning sequential steps). */
  readonly expectedRequestCredits?: () => number | undefined;
}

/** The figures of a request that is about to be sent, for the limit checks. */
interface Reservation {
  readonly credits: number;
}

/**
 * The one place every model request passes through: it counts input tokens before sending and output tokens
 * as they stream, prices them, records them in the ledger, and refuses (or cuts) a request that would take a
 * scope past its limit. Child scopes (a script within a run) have limits of their own and spend from their
 * parent's too.
 */
export class SpendingGovernor {
  private spentTotals: SpendTotals;
  private readonly inFlight = new Set<Reservation>();
  private forecastNote: string | undefined;

  private constructor(
    private readonly options: GovernorOptions,
    private readonly parent?: SpendingGovernor,
  ) {
    this.spentTotals = options.spentBefore ?? NO_SPEND;
  }

  static create(options: GovernorOptions): SpendingGovernor {
    return new SpendingGovernor(options);
  }

  /** A scope inside this one: its own limits, spending from this one's too (and recorded in the same ledger). */
  child(limits: SpendingLimits, scope: SpendingScope, step?: () => string): SpendingGovernor {
    return new SpendingGovernor(
      { ...this.options, limits, scope, step: step ?? this.options.step, spentBefore: NO_SPEND, onSpend: undefined },
      this,
    );
  }

  get limits(): SpendingLimits {
    return this.options.limits;
  }

  get ledger(): SpendingLedger {
    return this.options.ledger;
  }

  get prices(): PriceBook {
    return this.options.prices;
  }

  /** How this door says to raise a limit and go on. */
  get advice(): LimitAdvice {
    return this.options.advice ?? SETTINGS_ADVICE;
  }

  /**
   * The sentence this scope's refusals add: what the work was forecast to cost, both figures (a limit decides on
   * the bound; the user also reads the expected figure). The latest forecast replaces an earlier one.
   */
  setForecast(sentence: string | undefined): void {
    this.forecastNote = sentence;
  }

  /** The forecast sentence set last (undefined: none). */
  get forecast(): string | undefined {
    return this.forecastNote;
  }

  /** What this scope has spent (earlier turns included). */
  get spent(): SpendTotals {
    return this.spentTotals;
  }

  /** Credits `model` would charge for these tokens; undefined when its price is unknown. */
  quote(model: LanguageModel, inputTokens: number, outputTokens: number): number | undefined {
    const price = this.options.prices.priceOf(model);
    return price === undefined ? undefined : creditsFor(price, inputTokens, outputTokens);
  }

  /** Requests sent and not yet ended (reserved): neither spent nor affordable, yet they will be paid. */
  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  /**
   * Requests this scope and its parents can still pay for, each assumed to cost `creditsEach` (default: the
   * mean so far); Infinity without limits. Planners think in requests; the governor still checks each one.
   */
  affordableRequests(creditsEach?: number): number {
    const { maxRequests, maxCredits } = this.limits;
    const spent = this.spentTotals;
    const reserved = this.inFlight.size;
    let left = maxRequests === undefined ? Infinity : Math.max(0, maxRequests - spent.requests - reserved);
    const mean = spent.requests > 0 ? spent.credits / spent.requests : 0;
    const each = creditsEach ?? Math.max(this.options.requestCredits?.() ?? 0, mean);
    if (maxCredits !== undefined && each > 0) left = Math.min(left, Math.floor((maxCredits - spent.credits) / each));
    const own = Math.max(0, left);
    return this.parent ? Math.min(own, this.parent.affordableRequests(creditsEach)) : own;
  }

  /** `model`, with every request checked, measured and charged to `who` (at `step`, or the scope's step). */
  model(model: LanguageModel, who: string, step?: () => string): LanguageModel {
    // The governor's own generator is the model's stream: no wrapping generator between the caller and the model.
    return withSendRequest(model, (request, token) =>
      this.send(model, request, token, who, (step ?? this.options.step)?.() ?? ''),
    );
  }

  private async *send(
    model: LanguageModel,
    request: ModelRequest,
    token: CancellationSignal,
    who: string,
    step: string,
  ): AsyncGenerator<ResponsePart> {
    const inputTokens = await countRequestTokens(model, request, token);
    // A request the model cannot take is refused here, unpaid, with the figures (providers only say "too large").
    if (model.maxInputTokens > 0 && inputTokens > model.maxInputTokens) {
      throw new LanguageModelFailure(
        'tooLarge',
        `${TOO_LARGE_PREFIX} about ${tokensText(inputTokens)} tokens and ${model.name} takes at most ${tokensText(model.maxInputTokens)}. Pick a model with a larger context window in the model picker, or attach less, then press Try again.`,
      );
    }
    const price = this.options.prices.priceOf(model);
    const credits = (output: number) => (price === undefined ? undefined : creditsFor(price, inputTokens, output));
    const reservation: Reservation = { credits: credits(OUTPUT_RESERVE_TOKENS) ?? 0 };
    this.check(reservation, inputTokens, price !== undefined);
    this.reserve(reservation);
    const scope = new CancellationScope(token);
    let outputText = '';
    let failed = false;
    let schemaRefused = false;
    let largestChunk = 0;
    try {
      for await (const part of model.sendRequest(request, scope)) {
        const chunk = part.kind === 'text' ? part.text : `${part.name} ${JSON.stringify(part.input ?? null)}`;
        outputText += chunk;
        largestChunk = Math.max(largestChunk, chunk.length);
        // Cut one chunk early: what the provider has streamed is billed, so the next chunk must still fit.
        const streamed = Math.ceil((outputText.length + largestChunk) / CHARS_PER_TOKEN);
        const cutAt = this.overrun({ credits: credits(streamed) ?? 0 }, inputTokens + streamed);
        if (cutAt) {
          scope.cancel();
          throw cutAt;
        }
        yield part;
      }
    } catch (error) {
      failed = true;
      schemaRefused = (request.tools?.length ?? 0) > 0 && isSchemaRefusal(error);
      throw error;
    } finally {
      scope.dispose();
      this.release(reservation);
      const outputTokens = outputText === '' ? 0 : await model.countTokens(outputText).catch(() => 0);
      this.charge({
        who,
        step,
        model: model.name,
        inputTokens,
        outputTokens,
        credits: credits(outputTokens),
        failed,
        ...(schemaRefused ? { schemaRefused } : {}),
      });
    }
  }

  /** Throws the refusal when a request with these figures would take this scope or a parent past a limit. */
  private check(reservation: Reservation, inputTokens: number, priced: boolean): void {
    const { maxRequests, maxCredits, maxTokens } = this.limits;
    const spent = this.spentTotals;
    const pending = [...this.inFlight];
    if (maxRequests !== undefined && spent.requests + pending.length + 1 > maxRequests) throw this.refusal('requests');
    const tokens = spent.inputTokens + spent.outputTokens + inputTokens;
    if (maxTokens !== undefined && tokens > maxTokens)
      throw this.refusal('tokens', `The next request needs ${tokensText(inputTokens)} more.`);
    const committed = spent.credits + pending.reduce((sum, r) => sum + r.credits, 0);
    if (priced && maxCredits !== undefined && committed + reservation.credits > maxCredits)
      throw this.refusal(
        'credits',
        pending.length === 0
          ? `The next request needs about ${amountText(reservation.credits)} more.`
          : `The batch of ${pending.length + 1} requests sent at once did not fit: each reserves its input and up to ${tokensText(OUTPUT_RESERVE_TOKENS)} output tokens while it runs, and this one needs about ${amountText(reservation.credits)} more.`,
      );
    this.parent?.check(reservation, inputTokens, priced);
  }

  /** The refusal when a streaming reply has gone past a limit (the request is then cut). */
  private overrun(now: Reservation, tokensNow: number): LanguageModelFailure | undefined {
    const { maxCredits, maxTokens } = this.limits;
    const spent = this.spentTotals;
    if (maxTokens !== undefined && spent.inputTokens + spent.outputTokens + tokensNow > maxTokens)
      return this.refusal('tokens', CUT);
    if (maxCredits !== undefined && spent.credits + now.credits > maxCredits) return this.refusal('credits', CUT);
    return this.parent?.overrun(now, tokensNow);
  }

  private reserve(reservation: Reservation): void {
    this.inFlight.add(reservation);
    this.parent?.reserve(reservation);
  }

  private release(reservation: Reservation): void {
    this.inFlight.delete(reservation);
    this.parent?.release(reservation);
  }

  private charge(charge: SpendCharge): void {
    this.spentTotals = addCharge(this.spentTotals, charge);
    if (this.parent) this.parent.charge(charge);
    else this.options.ledger.record(charge);
    this.options.onSpend?.(this.spentTotals);
  }

  /**
   * The failure when a step needing `requests` more cannot be paid (`forWhat`: "the first drafts of the debate"),
   * naming the limit that binds.
   */
  /** The credits a request is planned to reserve while it runs, and to cost once it ends (undefined: unknown). */
  plannedCredits(): { readonly reserve: number; readonly expected: number } | undefined {
    const reserve = this.options.requestCredits?.();
    if (reserve === undefined || reserve <= 0) return undefined;
    return { reserve, expected: Math.min(reserve, this.options.expectedRequestCredits?.() ?? reserve) };
  }

  /** Credits this scope (and its parents) may still spend; Infinity without a credit limit. */
  creditsLeft(): number {
    const { maxCredits } = this.limits;
    const own = maxCredits === undefined ? Infinity : Math.max(0, maxCredits - this.spentTotals.credits);
    return this.parent ? Math.min(own, this.parent.creditsLeft()) : own;
  }

  /**
   * The failure, before anything is spent on it, when `forWhat` (`requests` requests) needs about `credits` and
   * less is left: what it needs, the limit, what is left, and what to change.
   */
  creditShortfall(credits: number, requests: number, forWhat: string): LanguageModelFailure {
    const { subject, limits, work } = this.options.scope;
    const raise = limits.credits && this.advice.raise(limits.credits);
    const maxCredits = this.limits.maxCredits ?? 0;
    const spentSome = this.spentTotals.credits > 0;
    const left = spentSome ? `, ${leftText(this.creditsLeft())}` : '';
    return new LanguageModelFailure(
      'budgetSpent',
      [
        `${subject} needs about ${costText(credits, spentSome)} for ${forWhat} (${requests} request${requests === 1 ? '' : 's'}; each reserves up to 1,000 output tokens while it runs); its limit is ${costText(maxCredits)}${left}. Nothing was spent on it.`,
        this.forecastNote,
        `${sentenceStart(raise ?? 'raise the credit limit')} or pick a cheaper model, then ${this.advice.goOn(work)}.`,
      ]
        .filter(Boolean)
        .join(' '),
      this.options.scope,
    );
  }

  shortfall(requests: number, forWhat: string): LanguageModelFailure {
    const { maxRequests } = this.limits;
    const left = maxRequests === undefined ? Infinity : maxRequests - this.spentTotals.requests;
    const need = `${sentenceStart(forWhat)} needs ${requests} more request${requests === 1 ? '' : 's'}.`;
    return this.refusal(left < requests ? 'requests' : 'credits', need);
  }

  /**
   * The failure that says which limit stopped the work, what was spent (requests still streaming count as used),
   * `next` (what the next step needs), and what to do.
   */
  refusal(limit: 'requests' | 'credits' | 'tokens', next?: string): LanguageModelFailure {
    const { subject, limits, work } = this.options.scope;
    const spent = this.spentTotals;
    const { maxRequests, maxCredits, maxTokens } = this.limits;
    const figures =
      limit === 'requests'
        ? `has used ${spent.requests + this.inFlight.size} of its ${maxRequests} model requests`
        : limit === 'credits'
          ? `has spent about ${amountText(spent.credits)} of its ${costText(maxCredits ?? 0)} (${spent.requests} request${spent.requests === 1 ? '' : 's'}, ${tokensText(spent.inputTokens + spent.outputTokens)} tokens)`
          : `has used ${tokensText(spent.inputTokens + spent.outputTokens)} of its ${tokensText(maxTokens ?? 0)} tokens`;
    const raisable = limits[limit];
    const raise = raisable && this.advice.raise(raisable);
    const goOn = this.advice.goOn(work);
    const how = raise ? `${sentenceStart(raise)}, then ${goOn}.` : `${sentenceStart(goOn)}.`;
    // The scope rides along as the cause, so a caller can tell whose limit stopped the work (a script's or its run's).
    return new LanguageModelFailure(
      'budgetSpent',
      [`${subject} ${figures}.`, next, this.forecastNote, how].filter(Boolean).join(' '),
      this.options.scope,
    );
  }
}

/** Tokens a request carries: its messages, its tool definitions and its response format (each schema is billed). */
async function countRequestTokens(
  model: LanguageModel,
  request: ModelRequest,
  token?: CancellationSignal,
): Promise<number> {
  const texts = request.messages.map(messageText);
  if (request.tools && request.tools.length > 0) texts.push(JSON.stringify(request.tools));
  if (request.responseFormat) texts.push(JSON.stringify(request.responseFormat.schema));
  const counts = await Promise.all(texts.map(text => model.countTokens(text, token)));
  return counts.reduce((sum, n) => sum + n, 0);
}
