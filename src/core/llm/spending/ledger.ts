import { z } from 'zod';

/** What one persona or agent spent in one step on one model: stored with the session or run. */
export const LedgerLine = z.object({
  /** The persona or agent that asked (e.g. "Security Expert", "discovery agent 2", "script"). */
  who: z.string(),
  /** The step it asked in (e.g. "cycle 2", "synthesis", "phase discover"). */
  step: z.string(),
  /** The model's name as the user knows it. */
  model: z.string(),
  requests: z.number().int().min(0),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  /** Estimated AI credits; absent when the model's price is unknown. */
  credits: z.number().min(0).optional(),
  /** Requests that failed or were cut (they are billed too). */
  failed: z.number().int().min(0).optional(),
  /** Of those, requests whose tool schema the provider refused (each then asked for JSON in the reply instead). */
  schemaRefused: z.number().int().min(0).optional(),
});
export type LedgerLine = z.infer<typeof LedgerLine>;

export const SpendingLedgerSchema = z.array(LedgerLine);

/** The sums over a ledger. */
export interface SpendTotals {
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Credits of the requests whose price is known. */
  readonly credits: number;
  /** Tokens (in and out) of requests whose price is unknown: shown as tokens only. */
  readonly unpricedTokens: number;
}

export const NO_SPEND: SpendTotals = { requests: 0, inputTokens: 0, outputTokens: 0, credits: 0, unpricedTokens: 0 };

/** One request as the governor measured it. */
export interface SpendCharge {
  readonly who: string;
  readonly step: string;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly credits: number | undefined;
  readonly failed: boolean;
  /** The provider refused the request's tool schema (see isSchemaRefusal). */
  readonly schemaRefused?: boolean;
}

/** Adds one request to totals. */
export function addCharge(totals: SpendTotals, charge: SpendCharge): SpendTotals {
  return {
    requests: totals.requests + 1,
    inputTokens: totals.inputTokens + charge.inputTokens,
    outputTokens: totals.outputTokens + charge.outputTokens,
    credits: totals.credits + (charge.credits ?? 0),
    unpricedTokens:
      totals.unpricedTokens + (charge.credits === undefined ? charge.inputTokens + charge.outputTokens : 0),
  };
}

/** Every request a session or run paid for, by who, step and model (same key: one line). */
export class SpendingLedger {
  private readonly lines: LedgerLine[];

  constructor(lines: readonly LedgerLine[] = []) {
    this.lines = lines.map(line => ({ ...line }));
  }

  /** A stored ledger; anything unreadable reads as empty (the figures are estimates, never a reason to fail). */
  static from(raw: unknown): SpendingLedger {
    const parsed = SpendingLedgerSchema.safeParse(raw);
    return new SpendingLedger(parsed.success ? parsed.data : []);
  }

  record(charge: SpendCharge): void {
    const line = this.lines.find(l => l.who === charge.who && l.step === charge.step && l.model === charge.model);
    const target =
      line ??
      this.lines[
        this.lines.push({
          who: charge.who,
          step: charge.step,
          model: charge.model,
          requests: 0,
          inputTokens: 0,
          outputTokens: 0,
        }) - 1
      ]!;
    target.requests += 1;
    target.inputTokens += charge.inputTokens;
    target.outputTokens += charge.outputTokens;
    if (charge.credits !== undefined) target.credits = (target.credits ?? 0) + charge.credits;
    if (charge.failed) target.failed = (target.failed ?? 0) + 1;
    if (charge.schemaRefused) target.schemaRefused = (target.schemaRefused ?? 0) + 1;
  }

  get entries(): readonly LedgerLine[] {
    return this.lines;
  }

  totals(): SpendTotals {
    return this.lines.reduce<SpendTotals>(
      (sum, line) => ({
        requests: sum.requests + line.requests,
        inputTokens: sum.inputTokens + line.inputTokens,
        outputTokens: sum.outputTokens + line.outputTokens,
        credits: sum.credits + (line.credits ?? 0),
        unpricedTokens: sum.unpricedTokens + (line.credits === undefined ? line.inputTokens + line.outputTokens : 0),
      }),
      NO_SPEND,
    );
  }

  toJSON(): LedgerLine[] {
    return this.lines.map(line => ({ ...line }));
  }
}
