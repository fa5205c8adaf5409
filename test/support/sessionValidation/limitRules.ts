import {
  clarificationRoundLimit,
  cycleLimit,
  cycleReachesLimit,
  cycleWithinLimit,
  roundWithinLimit,
} from '../../../src/core/session/limits';
import { issueAt, type SessionRule, type ValidationIssue } from './issues';

/** Spec "Constraint Enforcement": clarification rounds and debate cycles stay within the limits in `limits.ts`. */
export const limitRules: SessionRule = session => {
  const issues: ValidationIssue[] = [];
  const { limits, extendedDebateRequested: extended } = session;
  const roundLimit = clarificationRoundLimit(limits);
  const cycles = cycleLimit(limits, extended);

  if (session.clarificationRounds > roundLimit) {
    issues.push(issueAt(['clarificationRounds'], `at most ${roundLimit} clarification rounds are allowed`));
  }
  session.questions.forEach((q, index) => {
    if (!roundWithinLimit(q.roundNumber, limits))
      issues.push(
        issueAt(['questions', index, 'roundNumber'], `round ${q.roundNumber} exceeds the limit of ${roundLimit}`),
      );
  });
  if (session.debateCycles > cycles) {
    issues.push(issueAt(['debateCycles'], `at most ${cycles} debate cycles are allowed`));
  }

  const stoppedAt = session.discussions.find(d => d.status === 'limit_reached')?.cycleNumber;
  session.discussions.forEach((d, index) => {
    if (!cycleWithinLimit(d.cycleNumber, limits, extended)) {
      issues.push(
        issueAt(['discussions', index, 'cycleNumber'], `cycle ${d.cycleNumber} exceeds the limit of ${cycles}`),
      );
    }
    if (!extended && stoppedAt !== undefined && d.cycleNumber > stoppedAt) {
      issues.push(
        issueAt(
          ['discussions', index],
          'no debate cycle may follow the one that reached the limit unless the debate was extended',
        ),
      );
    }
    if (d.status === 'concluded' && !d.converged && cycleReachesLimit(d.cycleNumber, limits, extended)) {
      issues.push(
        issueAt(
          ['discussions', index, 'status'],
          'an unconverged cycle at the cycle limit must be marked limit_reached',
        ),
      );
    }
    if (d.status === 'limit_reached' && !cycleReachesLimit(d.cycleNumber, limits, false)) {
      issues.push(
        issueAt(
          ['discussions', index, 'status'],
          `cycle ${d.cycleNumber} did not reach the limit of ${limits.debateCycleLimit}`,
        ),
      );
    }
  });

  session.messageTurns.forEach((turn, index) => {
    if (turn.messageType === 'answer' && !roundWithinLimit(turn.relatedCycleOrRound.number, limits)) {
      issues.push(issueAt(['messageTurns', index], `no answer is possible after round ${roundLimit}`));
    }
    if (turn.messageType === 'discussion' && !cycleWithinLimit(turn.relatedCycleOrRound.number, limits, extended)) {
      issues.push(issueAt(['messageTurns', index], `no discussion is possible after the cycle limit of ${cycles}`));
    }
  });
  return issues;
};
