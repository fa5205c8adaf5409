import { CancellationScope } from '../../llm/cancellationScope';
import { CancelledError, LanguageModelFailure, type CancellationSignal } from '../../llm/languageModel';
import type { SpendingGovernor, SpendingScope } from '../../llm/spending/governor';
import { sentenceStart } from '../../llm/spending/limitAdvice';
import type { HostFunction, JsonValue } from '../sandbox/scriptSandbox';

/** The message of whatever a call rejected with, as one sentence without its final stop. */
function messageOf(reason: unknown): string {
  return (reason instanceof Error ? reason.message : String(reason)).replace(/\.+$/, '');
}

/** A host call that failed: its number in call order, the function and why (one sentence, no stop). */
export interface FailedCall {
  readonly call: number;
  readonly name: string;
  readonly message: string;
}

/** What one script may spend: `thinkHard` calls and their tokens, and calls to the host of any kind. */
export interface ScriptSpendLimits {
  readonly maxModelCalls: number;
  readonly maxTokens: number;
  readonly maxHostCalls: number;
}

/** The defaults of `council.budget.script*` (package.json declares the same). */
export const DEFAULT_SCRIPT_SPEND_LIMITS: ScriptSpendLimits = {
  maxModelCalls: 20,
  maxTokens: 200_000,
  maxHostCalls: 5_000,
};

/** How a script's own limits are named when one stops it. */
const SCRIPT_SCOPE: SpendingScope = {
  subject: 'The script',
  limits: { requests: 'scriptModelCalls', tokens: 'scriptTokens' },
  work: 'script',
};

/**
 * One script run's account: every host call it makes belongs to it. Model calls spend from a child scope of the
 * run's governor (so the run's limits hold too) with the script's own caps; host calls of any kind are capped; a
 * call still in flight when the script ends is cancelled and awaited, so nothing the script started runs (or
 * spends) after it, and a limit that refused any call — awaited, caught or not — is reported, never swallowed.
 */
export class ScriptSpending {
  readonly governor: SpendingGovernor;
  /** Cancels what the script started when it ends (and follows the run's cancellation). */
  readonly signal: CancellationScope;
  private hostCalls = 0;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly failed: FailedCall[] = [];
  private firstRefusal: LanguageModelFailure | undefined;

  constructor(
    private readonly limits: ScriptSpendLimits,
    token: CancellationSignal,
    run: SpendingGovernor,
  ) {
    this.governor = run.child({ maxRequests: limits.maxModelCalls, maxTokens: limits.maxTokens }, SCRIPT_SCOPE);
    this.signal = new CancellationScope(token);
  }

  /** How to go on after the host-call cap stopped the script, in the door's words. */
  private hostCallsAdvice(): string {
    const { advice } = this.governor;
    const raise = advice.raise('scriptHostCalls');
    return `${sentenceStart(raise ? `${raise}, or make fewer calls` : 'make fewer calls')}, then ${advice.goOn('script')}.`;
  }

  /** The host functions, each call counted against the host-call cap and tracked until it settles. */
  guard(functions: Readonly<Record<string, HostFunction>>): Record<string, HostFunction> {
    return Object.fromEntries(
      Object.entries(functions).map(([name, fn]) => [name, (...args: JsonValue[]) => this.call(name, fn, args)]),
    );
  }

  private call(name: string, fn: HostFunction, args: JsonValue[]): JsonValue | Promise<JsonValue> {
    // Numbered from 0 over every call, as the sandbox numbers them (see ScriptOutcome.unobservedCalls).
    const call = this.hostCalls;
    this.hostCalls += 1;
    if (this.hostCalls > this.limits.maxHostCalls) {
      const refusal = new LanguageModelFailure(
        'budgetSpent',
        `${SCRIPT_SCOPE.subject} made more than its ${this.limits.maxHostCalls} calls to the host (\`${name}\` was the next). ${this.hostCallsAdvice()}`,
        SCRIPT_SCOPE,
      );
      this.firstRefusal ??= refusal;
      this.signal.cancel();
      throw refusal;
    }
    const failed = (error: unknown): never => {
      if (error instanceof LanguageModelFailure && error.kind === 'budgetSpent') {
        this.firstRefusal ??= error;
        // Once a limit is reached nothing else the script started may go on spending.
        this.signal.cancel();
      } else if (
        !(error instanceof CancelledError) &&
        !(error instanceof LanguageModelFailure && error.kind === 'cancelled')
      ) {
        this.failed.push({ call, name, message: messageOf(error) });
      }
      throw error;
    };
    let result: ReturnType<HostFunction>;
    try {
      result = fn(...args);
    } catch (error) {
      return failed(error);
    }
    if (!(result instanceof Promise)) return result;
    const tracked = result.catch(failed);
    this.inFlight.add(tracked);
    void tracked.then(
      () => this.inFlight.delete(tracked),
      () => this.inFlight.delete(tracked),
    );
    return tracked;
  }

  /**
   * After the script: cancels and awaits what it left running (their spend is counted before the run goes on).
   * Returns the refusal that a limit gave during the script, if any, and every call (numbered from 0 in call order,
   * as the sandbox numbers them) that failed for a reason of its own, not a cancellation.
   */
  async close(): Promise<{ readonly refusal?: LanguageModelFailure; readonly failed: readonly FailedCall[] }> {
    if (this.inFlight.size > 0) {
      this.signal.cancel();
      await Promise.allSettled([...this.inFlight]);
    }
    this.signal.dispose();
    return { ...(this.firstRefusal ? { refusal: this.firstRefusal } : {}), failed: this.failed };
  }

  /** Whether `refusal` is this script's own cap (rather than the run's budget, which stops the run itself). */
  isOwn(refusal: LanguageModelFailure): boolean {
    return refusal.cause === SCRIPT_SCOPE;
  }
}
