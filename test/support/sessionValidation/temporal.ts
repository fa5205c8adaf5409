import { compareQuestions } from '../../../src/core/session/clarification';
import { instant } from './instant';
import { issueAt, type SessionRule, type ValidationIssue } from './issues';

/** Spec "Temporal Ordering": turns in strictly increasing sequence, questions in round order, nothing answered before it was asked. */
export const temporalRules: SessionRule = session => {
  const issues: ValidationIssue[] = [];
  session.messageTurns.forEach((turn, index) => {
    const previous = session.messageTurns[index - 1];
    if (previous !== undefined && turn.sequenceNumber <= previous.sequenceNumber) {
      issues.push(
        issueAt(
          ['messageTurns', index, 'sequenceNumber'],
          `must be unique and strictly increasing (${turn.sequenceNumber} follows ${previous.sequenceNumber})`,
        ),
      );
    }
  });

  session.questions.forEach((question, index) => {
    const previous = session.questions[index - 1];
    if (previous !== undefined && compareQuestions(previous, question) >= 0) {
      issues.push(
        issueAt(
          ['questions', index],
          'questions must be ordered by roundNumber, then sequenceInRound, without repeats',
        ),
      );
    }
    if (question.status === 'answered' && instant(question.answeredAt) < instant(question.createdAt)) {
      issues.push(issueAt(['questions', index, 'answeredAt'], 'a question cannot be answered before it was asked'));
    }
  });

  const questions = new Map(session.questions.map(q => [q.questionId, q]));
  session.answers.forEach((answer, index) => {
    const question = questions.get(answer.questionId);
    if (question !== undefined && instant(answer.createdAt) < instant(question.createdAt)) {
      issues.push(issueAt(['answers', index, 'createdAt'], 'a question cannot be answered before it was asked'));
    }
  });

  const asked = new Set<string>();
  session.messageTurns.forEach((turn, index) => {
    if (turn.messageType === 'question') asked.add(turn.questionId);
    if (turn.messageType === 'answer' && !asked.has(turn.questionId)) {
      issues.push(issueAt(['messageTurns', index], 'an answer turn must follow the turn that asked its question'));
    }
  });

  session.discussions.forEach((discussion, index) => {
    if (discussion.status !== 'in_progress' && instant(discussion.exchangeEnds) < instant(discussion.exchangeStarts)) {
      issues.push(issueAt(['discussions', index, 'exchangeEnds'], 'a debate cycle cannot end before it starts'));
    }
  });
  return issues;
};
