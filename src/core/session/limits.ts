import { z } from 'zod';

/**
 * Every limit of a council session lives here, so the machine's guards and `validateSession`
 * cannot disagree about what "within the limit" means.
 */

/** The spec's hard ceiling on clarification rounds (FR-021): configuration may lower it, never raise it. */
export const MAX_CLARIFICATION_ROUNDS = 3;

/** Default number of debate cycles before the council must conclude (FR-016). */
export const DEFAULT_DEBATE_CYCLE_LIMIT = 10;

/** The limits one session runs under. Raise `adminMaxDebateCycles` together with `debateCycleLimit`. */
export const SessionLimits = z
  .object({
    maxClarificationRounds: z.number().int().min(1).max(MAX_CLARIFICATION_ROUNDS).default(MAX_CLARIFICATION_ROUNDS),
    debateCycleLimit: z.number().int().min(1).default(DEFAULT_DEBATE_CYCLE_LIMIT),
    adminMaxDebateCycles: z.number().int().min(1).default(DEFAULT_DEBATE_CYCLE_LIMIT),
  })
  .refine(limits => limits.adminMaxDebateCycles >= limits.debateCycleLimit, {
    message: 'adminMaxDebateCycles must be at least debateCycleLimit',
    path: ['adminMaxDebateCycles'],
  });
export type SessionLimits = z.infer<typeof SessionLimits>;
/** Limits as configured: every field optional, defaults filled in by `SessionLimits.parse`. */
export type SessionLimitsInit = z.input<typeof SessionLimits>;

/** How many clarification rounds this session may open (never more than 3). */
export function clarificationRoundLimit(limits: SessionLimits): number {
  return Math.min(limits.maxClarificationRounds, MAX_CLARIFICATION_ROUNDS);
}

/** Whether round `roundNumber` (1-based) is allowed at all. */
export function roundWithinLimit(roundNumber: number, limits: SessionLimits): boolean {
  return roundNumber >= 1 && roundNumber <= clarificationRoundLimit(limits);
}

/** Whether another round may open after `roundsSoFar` rounds. */
export function canStartClarificationRound(roundsSoFar: number, limits: SessionLimits): boolean {
  return roundWithinLimit(roundsSoFar + 1, limits);
}

/** The cycle limit in force: the admin maximum only once the user asked for an extended debate (FR-017/018). */
export function cycleLimit(limits: SessionLimits, extendedDebateRequested: boolean): number {
  return extendedDebateRequested ? limits.adminMaxDebateCycles : limits.debateCycleLimit;
}

/** Whether debate cycle `cycleNumber` (1-based) may run. */
export function cycleWithinLimit(
  cycleNumber: number,
  limits: SessionLimits,
  extendedDebateRequested: boolean,
): boolean {
  return cycleNumber >= 1 && cycleNumber <= cycleLimit(limits, extendedDebateRequested);
}

/** Whether cycle `cycleNumber` is the last one allowed, so an unconverged council must stop there. */
export function cycleReachesLimit(
  cycleNumber: number,
  limits: SessionLimits,
  extendedDebateRequested: boolean,
): boolean {
  return cycleNumber >= cycleLimit(limits, extendedDebateRequested);
}

/** Whether a debate stopped by the limit may continue: only up to the admin maximum, and only once. */
export function extensionAllowed(
  limits: SessionLimits,
  extendedDebateRequested: boolean,
  lastCycleHitLimit: boolean,
): boolean {
  return lastCycleHitLimit && limits.adminMaxDebateCycles > cycleLimit(limits, extendedDebateRequested);
}

/** A debate needs at least two personas, unless the whole council is a single persona. */
export function enoughDebaters(debaters: number, councilSize: number): boolean {
  return debaters >= Math.min(2, councilSize);
}
