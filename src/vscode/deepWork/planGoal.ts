import type { SessionLog } from '../../core/council/sessionLog';
import { activeAssumptions } from '../../core/session/selectors';
import type { DeepWorkRequest } from '../../core/deepWork/runDeepWork';

/** Longest goal taken from a council answer, in characters. */
const MAX_GOAL_CHARS = 4000;

/**
 * The goal of `/plan` without text: a completed council session's final answer, with its active assumptions as
 * constraints; undefined when the thread has no completed session.
 */
export function goalFromSession(session: SessionLog | undefined): DeepWorkRequest['start'] {
  if (!session || session.state !== 'completed') return undefined;
  const answer = session.snapshot.context.finalAnswer?.trim();
  if (!answer) return undefined;
  const goal = answer.length > MAX_GOAL_CHARS ? `${answer.slice(0, MAX_GOAL_CHARS)}…` : answer;
  return {
    goal: `Implement what the council recommended:\n\n${goal}`,
    constraints: activeAssumptions(session.snapshot).map(a => `Assumption: ${a.assumption}`),
  };
}
