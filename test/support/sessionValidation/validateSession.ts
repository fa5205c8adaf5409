import { ConversationSession } from '../../../src/core/session/session';
import { clarificationRules } from './clarificationRules';
import { consistencyRules } from './consistency';
import { discussionRules } from './discussionRules';
import { formatPath, type SessionRule, type ValidationIssue, type ValidationOptions } from './issues';
import { limitRules } from './limitRules';
import { messageTypeRules } from './messageTypes';
import { participantRules } from './participantRules';
import { referenceRules } from './references';
import { temporalRules } from './temporal';

const rules: readonly SessionRule[] = [
  referenceRules,
  temporalRules,
  messageTypeRules,
  consistencyRules,
  limitRules,
  participantRules,
  clarificationRules,
  discussionRules,
];

/**
 * Checks a session record against every validation rule of spec 004. The record's shape is checked
 * first (the zod schema); only a well-shaped record is checked against the cross-entity rules.
 * Returns the broken rules; an empty list means the session is valid.
 */
export function validateSession(session: unknown, options: ValidationOptions): readonly ValidationIssue[] {
  const parsed = ConversationSession.safeParse(session);
  if (!parsed.success)
    return parsed.error.issues.map(issue => ({ path: formatPath(issue.path), message: issue.message }));
  return rules.flatMap(rule => rule(parsed.data, options));
}
