import type { NextStep } from '../nextSteps';
import { supersededRecord } from './precedentStance';
import type { SessionSnapshot } from '../session/machine';
import { activeQuestion, canAskMore, canExtend, canRevisit, councilStepPending } from '../session/selectors';

/** How the turn that just ran on a session ended, as far as what comes next is concerned. */
export interface TurnEnd {
  /** The turn stopped early (a failure, Stop): what it was doing can be picked up again. */
  readonly stopped?: boolean;
  /** The council was just asked for more questions and had none, so that is not offered again. */
  readonly noFurtherQuestions?: boolean;
}

/**
 * What the user can do next with a session in `snapshot`'s state, in the order the chat shows its buttons: pick up
 * a turn that stopped, answer (or accept, skip, skip all) the open question, ask more, revisit the skipped ones,
 * extend a debate its cycle limit stopped, record a completed answer's decision or plan it, read the assumption log, start anew.
 */
export function sessionNextSteps(snapshot: SessionSnapshot, end: TurnEnd = {}): NextStep[] {
  const sessionId = snapshot.context.sessionId;
  const state = snapshot.value;
  const question = activeQuestion(snapshot);
  const steps: NextStep[] = [];
  if (end.stopped && (councilStepPending(state) || (state === 'clarifying' && !question)))
    steps.push({ kind: 'retry', of: { sessionId }, after: 'failure' });
  if (question) {
    steps.push({ kind: 'answer', sessionId, questionId: question.questionId });
    if (question.recommendedAnswer !== undefined) steps.push({ kind: 'accept', sessionId });
    steps.push({ kind: 'skip', sessionId }, { kind: 'skipAll', sessionId });
  }
  if (canAskMore(snapshot) && !end.noFurtherQuestions) steps.push({ kind: 'more', sessionId });
  if (canRevisit(snapshot)) steps.push({ kind: 'revisit', sessionId });
  if (canExtend(snapshot)) steps.push({ kind: 'extend', sessionId });
  if (state === 'completed') {
    const superseded = supersededRecord(snapshot);
    const supersedes = superseded && { path: superseded.path, number: superseded.number };
    steps.push({ kind: 'record', sessionId, ...(supersedes ? { supersedes } : {}) }, { kind: 'planThis', sessionId });
  }
  steps.push({ kind: 'assumptions', sessionId }, { kind: 'new' });
  return steps;
}
