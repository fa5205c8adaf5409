import { isActiveAssumption } from '../../../src/core/session/clarification';
import { issueAt, type SessionRule, type ValidationIssue } from './issues';

/** Spec 004: words that mark a reply as "skip this question" (with their common inflections). */
const SKIP_KEYWORDS: readonly string[] = ['skip', 'skipped', 'skipping', 'pass', 'defer', 'deferred', 'later'];

const skipPattern = new RegExp(`\\b(${SKIP_KEYWORDS.join('|')})\\b`, 'i');

/** Whether the text mentions a skip keyword as a whole word. */
export function mentionsSkipKeyword(text: string): boolean {
  return skipPattern.test(text);
}

/** Spec "ClarificationQuestion", "ClarificationAnswer" and "Assumption" validation. */
export const clarificationRules: SessionRule = session => {
  const issues: ValidationIssue[] = [];
  const answers = new Map(session.answers.map(a => [a.answerId, a]));
  const standing = new Map<string, number>();
  for (const assumption of session.assumptionLog) {
    if (assumption.relatedQuestionId !== undefined && isActiveAssumption(assumption)) {
      standing.set(assumption.relatedQuestionId, (standing.get(assumption.relatedQuestionId) ?? 0) + 1);
    }
  }

  session.questions.forEach((q, index) => {
    const assumptions = standing.get(q.questionId) ?? 0;
    if (q.status === 'answered') {
      const answer = answers.get(q.answerId);
      if (answer === undefined || answer.questionId !== q.questionId) {
        issues.push(issueAt(['questions', index, 'answerId'], 'an answered question needs its ClarificationAnswer'));
      }
      if (assumptions > 0)
        issues.push(issueAt(['questions', index], 'an answered question cannot keep a standing assumption'));
    }
    if ((q.status === 'skipped' || q.status === 'deferred') && assumptions === 0) {
      issues.push(issueAt(['questions', index], `a ${q.status} question needs an assumption in its place`));
    }
    if (assumptions > 1) issues.push(issueAt(['questions', index], 'a question has at most one standing assumption'));
  });

  session.answers.forEach((answer, index) => {
    if (answer.skipCommand && !mentionsSkipKeyword(answer.answer)) {
      issues.push(issueAt(['answers', index, 'answer'], 'a skip command must mention a skip keyword'));
    }
  });
  return issues;
};
