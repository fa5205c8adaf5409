import type { Clock } from '../../clock';
import { neverCancelled, throwIfCancelled, type CancellationSignal } from '../../llm/languageModel';
import { RepairBudget } from '../../llm/repairBudget';
import type { PayloadContractRegistry } from './contractRegistry';
import { ENVELOPE_VERSION, type HandoffEnvelope, type HandoffParty, type HandoffTrace } from './envelope';
import { summarizeRejection } from './rejectionSummary';
import { validateHandoff, type ValidationLayer } from './validateHandoff';
import type { HandoffValidationContext } from './validationContext';
import type { ValidationError } from './validationError';

/** Everything about a handoff except what the producing agent writes (the payload) and when (the timestamp). */
export interface HandoffDraft {
  readonly sessionId: string;
  readonly handoffId: string;
  readonly source: HandoffParty;
  readonly target: HandoffParty;
  /** `name@major.minor.patch` of the payload the producer is asked for. */
  readonly payloadSchema: string;
  readonly trace: HandoffTrace;
}

/** One failed try, kept so a rejected handoff loses nothing. */
export interface RejectedAttempt {
  readonly envelope: HandoffEnvelope;
  readonly failedLayer: ValidationLayer;
  readonly errors: readonly ValidationError[];
}

/** A handoff that passed validation. */
export interface AcceptedHandoff {
  readonly envelope: HandoffEnvelope;
  readonly warnings: readonly ValidationError[];
  readonly migrationsApplied: readonly string[];
  /** 1 when the first payload passed. */
  readonly attempts: number;
}

/** Thrown when the producer could not fix its payload within the repair budget; `message` is the user-facing summary. */
export class HandoffRejected extends Error {
  /** Errors of the last attempt. */
  readonly errors: readonly ValidationError[];
  /** The last rejected payload (so the step can be resumed or inspected). */
  readonly payload: unknown;

  constructor(
    readonly draft: HandoffDraft,
    readonly attempts: readonly RejectedAttempt[],
    readonly summary: string,
  ) {
    super(summary);
    this.name = 'HandoffRejected';
    const last = attempts[attempts.length - 1];
    this.errors = last?.errors ?? [];
    this.payload = last?.envelope.payload;
  }
}

/** Inputs of the bounded repair loop. */
export interface HandoffRepairRequest {
  readonly draft: HandoffDraft;
  /** Asks the producing agent for the payload; on a retry `feedback` holds what the last one got wrong. */
  readonly produce: (feedback?: readonly ValidationError[]) => Promise<unknown>;
  /** Repairs after the first attempt (when no shared `repairs` budget is given). */
  readonly maxRepairs: number;
  /** The reply's one repair budget, shared with the schema check that produced it (then `maxRepairs` is ignored). */
  readonly repairs?: RepairBudget;
  readonly registry: PayloadContractRegistry;
  /** Validation context; `now` is taken from `clock` at each attempt. */
  readonly context?: Omit<HandoffValidationContext, 'now'>;
  readonly clock: Clock;
  readonly token?: CancellationSignal;
}

/**
 * Produces, wraps and validates a payload, sending the findings back to the producer until it passes
 * or `maxRepairs` repairs have failed; then throws HandoffRejected carrying every attempt.
 */
export async function handoffWithRepair(request: HandoffRepairRequest): Promise<AcceptedHandoff> {
  const { draft, clock } = request;
  const token = request.token ?? neverCancelled;
  const attempts: RejectedAttempt[] = [];
  const repairs = request.repairs ?? new RepairBudget(request.maxRepairs);
  for (let attempt = 0; ; attempt++) {
    throwIfCancelled(token);
    const feedback = attempts[attempts.length - 1]?.errors;
    const payload = await request.produce(feedback);
    const now = clock.now();
    const envelope: HandoffEnvelope = { envelopeVersion: ENVELOPE_VERSION, ...draft, payload, timestamp: now };
    const verdict = validateHandoff(envelope, request.registry, { ...request.context, now });
    if (verdict.ok) {
      return {
        envelope: verdict.envelope,
        warnings: verdict.warnings,
        migrationsApplied: verdict.migrationsApplied,
        attempts: attempt + 1,
      };
    }
    attempts.push({ envelope, failedLayer: verdict.failedLayer, errors: verdict.errors });
    if (!repairs.take()) break;
  }
  const last = attempts[attempts.length - 1];
  const summary = last
    ? summarizeRejection(draft.source, draft.target, attempts.length, last.failedLayer, last.errors)
    : 'The handoff was rejected before any attempt was made.';
  throw new HandoffRejected(draft, attempts, summary);
}
