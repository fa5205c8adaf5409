import type { ClarificationQuestion } from '../session/clarification';
import type { SessionSnapshot } from '../session/machine';
import { pendingQuestions } from '../session/selectors';

/** Where the active clarifying question stands, as each door shows it beside the question. */
export interface QuestionPosition {
  /** The session's clarification round (after "more questions" an earlier round's question may still be open). */
  readonly round: number;
  readonly maxRounds: number;
  /** Questions still open after this one. */
  readonly left: number;
}

export function questionPosition(snapshot: SessionSnapshot, question: ClarificationQuestion): QuestionPosition {
  return {
    round: Math.max(snapshot.context.clarificationRounds, question.roundNumber),
    maxRounds: snapshot.context.limits.maxClarificationRounds,
    left: Math.max(0, pendingQuestions(snapshot).length - 1),
  };
}
