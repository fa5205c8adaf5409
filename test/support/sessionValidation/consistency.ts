import { finalRuns } from './finalRuns';
import { issueAt, type SessionRule, type ValidationIssue } from './issues';

/** Spec "State Consistency": what may exist or be active in each status, and counters that match their records. */
export const consistencyRules: SessionRule = session => {
  const issues: ValidationIssue[] = [];
  const { status } = session;

  if (
    status === 'created' &&
    (session.messageTurns.length > 0 || session.questions.length > 0 || session.discussions.length > 0)
  ) {
    issues.push(issueAt(['status'], 'a created session has no questions, discussions or turns yet'));
  }
  if (status !== 'created' && status !== 'cancelled' && session.selection === undefined) {
    issues.push(issueAt(['selection'], `a ${status} session needs its persona selection`));
  }
  if (status === 'completed' && session.finalAnswer === undefined) {
    issues.push(issueAt(['finalAnswer'], 'a completed session needs its final answer'));
  }
  if (status === 'completed' && session.messageTurns.length === 0) {
    issues.push(issueAt(['messageTurns'], 'a session cannot complete without any message turns'));
  }
  if (status !== 'completed' && session.finalAnswer !== undefined) {
    issues.push(issueAt(['finalAnswer'], 'only a completed session has a final answer'));
  }

  const active = session.questions.find(q => q.questionId === session.activeQuestionId);
  if (status === 'clarifying' && active?.status !== 'pending') {
    issues.push(issueAt(['activeQuestionId'], 'while clarifying, exactly one pending question is active'));
  }
  if (status !== 'clarifying' && session.activeQuestionId !== undefined) {
    issues.push(issueAt(['activeQuestionId'], `no question is active while ${status}`));
  }
  if (status === 'debating' || status === 'final' || status === 'completed') {
    session.questions.forEach((q, index) => {
      if (q.status === 'pending')
        issues.push(issueAt(['questions', index, 'status'], `no question is pending while ${status}`));
    });
  }

  session.discussions.forEach((d, index) => {
    if (d.status !== 'in_progress') return;
    if (index !== session.discussions.length - 1)
      issues.push(issueAt(['discussions', index, 'status'], 'only the latest debate cycle can be in progress'));
    if (status !== 'debating' && status !== 'cancelled') {
      issues.push(issueAt(['discussions', index, 'status'], `no debate cycle is in progress while ${status}`));
    }
  });

  const rounds = session.questions.reduce((max, q) => Math.max(max, q.roundNumber), 0);
  if (session.clarificationRounds !== rounds) {
    issues.push(
      issueAt(['clarificationRounds'], `counts ${session.clarificationRounds} rounds but the questions span ${rounds}`),
    );
  }
  for (let round = 1; round <= rounds; round += 1) {
    if (!session.questions.some(q => q.roundNumber === round))
      issues.push(issueAt(['questions'], `clarification round ${round} has no questions`));
  }
  const ended = session.discussions.filter(d => d.status !== 'in_progress').length;
  if (session.debateCycles !== ended) {
    issues.push(issueAt(['debateCycles'], `counts ${session.debateCycles} cycles but ${ended} debate cycles ended`));
  }
  session.discussions.forEach((d, index) => {
    if (d.cycleNumber !== index + 1)
      issues.push(
        issueAt(['discussions', index, 'cycleNumber'], `debate cycles are numbered in order; expected ${index + 1}`),
      );
  });

  // The spec's "only one final set before completed": each persona concludes once per final phase.
  for (const run of finalRuns(session.messageTurns)) {
    const concluded = new Set<string>();
    for (const turn of run) {
      if (turn.messageType !== 'conclusion') continue;
      if (concluded.has(turn.senderId)) {
        const index = session.messageTurns.indexOf(turn);
        issues.push(issueAt(['messageTurns', index], 'a persona gives at most one conclusion before the final answer'));
      }
      concluded.add(turn.senderId);
    }
  }
  return issues;
};
