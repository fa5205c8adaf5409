import type { Assumption, ClarificationQuestion } from './clarification';
import { isActiveAssumption } from './clarification';
import { checks } from './guards';
import { cycleLimit } from './limits';
import type { SessionSnapshot } from './machine';
import { findActiveQuestion, findDeferredQuestions, findPendingQuestions } from './queries';

/** The question awaiting the user's reply, if any. */
export function activeQuestion(snapshot: SessionSnapshot): ClarificationQuestion | undefined {
  return findActiveQuestion(snapshot.context);
}

/** Questions still to ask (including the active one), in asking order. */
export function pendingQuestions(snapshot: SessionSnapshot): readonly ClarificationQuestion[] {
  return findPendingQuestions(snapshot.context);
}

/** Assumptions still in force, for the final answer (FR-004, FR-008). */
export function activeAssumptions(snapshot: SessionSnapshot): readonly Assumption[] {
  return snapshot.context.assumptionLog.filter(isActiveAssumption);
}

/** The cycle limit in force now. */
export function effectiveCycleLimit(snapshot: SessionSnapshot): number {
  return cycleLimit(snapshot.context.limits, snapshot.context.extendedDebateRequested);
}

/** Whether the user may ask for another clarification round now. */
export function canAskMore(snapshot: SessionSnapshot): boolean {
  return snapshot.value === 'clarifying' && checks.canStartAnotherRound(snapshot.context) === undefined;
}

/** Whether skipped questions can be asked again now. */
export function canRevisit(snapshot: SessionSnapshot): boolean {
  return snapshot.value === 'clarifying' && findDeferredQuestions(snapshot.context).length > 0;
}

/** Whether the user may extend a debate the cycle limit stopped. */
export function canExtend(snapshot: SessionSnapshot): boolean {
  return snapshot.can({ type: 'DEBATE_EXTENDED', at: snapshot.context.updatedAt });
}

/** Whether the user must be told the debate stopped at its cycle limit (FR-019). */
export function limitNotice(snapshot: SessionSnapshot): boolean {
  return snapshot.context.limitNotice;
}

/** A session's machine state. */
export type SessionState = SessionSnapshot['value'];

/**
 * Whether the next step in `state` is the council's own (selection, a debate cycle, the answer), so a turn that
 * stopped there is continued by "resume" rather than by anything the user says.
 */
export function councilStepPending(state: SessionState): boolean {
  return state === 'created' || state === 'debating' || state === 'final';
}
