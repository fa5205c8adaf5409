import type { ConversationSession } from '../../../src/core/session/session';
import { issueAt, type SessionRule, type ValidationIssue } from './issues';

function duplicates(collection: string, ids: readonly string[], key: string): ValidationIssue[] {
  const seen = new Set<string>();
  return ids.flatMap((id, index) => {
    if (!seen.has(id)) {
      seen.add(id);
      return [];
    }
    return [issueAt([collection, index, key], `duplicate ${key} "${id}"`)];
  });
}

function foreignSessions(session: ConversationSession): ValidationIssue[] {
  const owned: ReadonlyArray<readonly [string, ReadonlyArray<{ readonly sessionId: string }>]> = [
    ['questions', session.questions],
    ['answers', session.answers],
    ['assumptionLog', session.assumptionLog],
    ['discussions', session.discussions],
    ['messageTurns', session.messageTurns],
  ];
  const issues = owned.flatMap(([collection, entities]) =>
    entities.flatMap((entity, index) =>
      entity.sessionId === session.sessionId
        ? []
        : [issueAt([collection, index, 'sessionId'], 'belongs to another session')],
    ),
  );
  if (session.selection !== undefined && session.selection.sessionId !== session.sessionId) {
    issues.push(issueAt(['selection', 'sessionId'], 'belongs to another session'));
  }
  return issues;
}

/** Ids are unique per collection, every entity belongs to this session, and every reference resolves. */
export const referenceRules: SessionRule = session => {
  const participants = new Set(session.participants.map(p => p.participantId));
  const personas = new Set(session.participants.filter(p => p.type === 'persona').map(p => p.participantId));
  const questions = new Set(session.questions.map(q => q.questionId));
  const answers = new Map(session.answers.map(a => [a.answerId, a]));
  const assumptions = new Set(session.assumptionLog.map(a => a.assumptionId));
  const discussions = new Set(session.discussions.map(d => d.discussionId));
  const turns = new Set(session.messageTurns.map(t => t.turnId));
  const missing = (path: ReadonlyArray<PropertyKey>, what: string, id: string) =>
    issueAt(path, `refers to unknown ${what} "${id}"`);

  const issues: ValidationIssue[] = [
    ...duplicates(
      'participants',
      session.participants.map(p => p.participantId),
      'participantId',
    ),
    ...duplicates(
      'questions',
      session.questions.map(q => q.questionId),
      'questionId',
    ),
    ...duplicates(
      'answers',
      session.answers.map(a => a.answerId),
      'answerId',
    ),
    ...duplicates(
      'assumptionLog',
      session.assumptionLog.map(a => a.assumptionId),
      'assumptionId',
    ),
    ...duplicates(
      'discussions',
      session.discussions.map(d => d.discussionId),
      'discussionId',
    ),
    ...duplicates(
      'messageTurns',
      session.messageTurns.map(t => t.turnId),
      'turnId',
    ),
    ...foreignSessions(session),
  ];

  if (session.activeQuestionId !== undefined && !questions.has(session.activeQuestionId)) {
    issues.push(missing(['activeQuestionId'], 'question', session.activeQuestionId));
  }
  session.questions.forEach((q, index) => {
    if (q.askedBy.kind !== 'personas') return;
    q.askedBy.personaIds.forEach((id, i) => {
      if (!personas.has(id)) issues.push(missing(['questions', index, 'askedBy', 'personaIds', i], 'persona', id));
    });
  });
  session.answers.forEach((a, index) => {
    if (!questions.has(a.questionId)) issues.push(missing(['answers', index, 'questionId'], 'question', a.questionId));
  });
  session.assumptionLog.forEach((a, index) => {
    if (a.relatedQuestionId !== undefined && !questions.has(a.relatedQuestionId)) {
      issues.push(missing(['assumptionLog', index, 'relatedQuestionId'], 'question', a.relatedQuestionId));
    }
    if (a.withdrawal?.reason === 'answered' && !answers.has(a.withdrawal.answerId)) {
      issues.push(missing(['assumptionLog', index, 'withdrawal', 'answerId'], 'answer', a.withdrawal.answerId));
    }
    if (a.withdrawal?.reason === 'superseded' && !assumptions.has(a.withdrawal.assumptionId)) {
      issues.push(
        missing(['assumptionLog', index, 'withdrawal', 'assumptionId'], 'assumption', a.withdrawal.assumptionId),
      );
    }
  });
  session.discussions.forEach((d, index) => {
    d.participatingPersonaIds.forEach((id, i) => {
      if (!personas.has(id)) issues.push(missing(['discussions', index, 'participatingPersonaIds', i], 'persona', id));
    });
    d.messageTurnIds.forEach((id, i) => {
      if (!turns.has(id)) issues.push(missing(['discussions', index, 'messageTurnIds', i], 'turn', id));
    });
  });
  session.messageTurns.forEach((t, index) => {
    if ('senderId' in t && t.senderId !== undefined && !participants.has(t.senderId)) {
      issues.push(missing(['messageTurns', index, 'senderId'], 'participant', t.senderId));
    }
    if (t.recipientId !== undefined && !participants.has(t.recipientId)) {
      issues.push(missing(['messageTurns', index, 'recipientId'], 'participant', t.recipientId));
    }
    if ((t.messageType === 'question' || t.messageType === 'answer') && !questions.has(t.questionId)) {
      issues.push(missing(['messageTurns', index, 'questionId'], 'question', t.questionId));
    }
    if (t.messageType === 'answer') {
      const answer = answers.get(t.answerId);
      if (answer === undefined) issues.push(missing(['messageTurns', index, 'answerId'], 'answer', t.answerId));
      else if (answer.questionId !== t.questionId)
        issues.push(issueAt(['messageTurns', index, 'answerId'], 'answers a different question'));
    }
    if (t.messageType === 'assumption_statement' && !assumptions.has(t.assumptionId)) {
      issues.push(missing(['messageTurns', index, 'assumptionId'], 'assumption', t.assumptionId));
    }
    if (t.messageType === 'discussion' && !discussions.has(t.discussionId)) {
      issues.push(missing(['messageTurns', index, 'discussionId'], 'discussion', t.discussionId));
    }
  });
  return issues;
};
