import type { SessionStatus } from '../../../src/core/session/enums';
import type { ParticipantType } from '../../../src/core/session/enums';
import type { MessageTurn } from '../../../src/core/session/turns';
import { issueAt, type SessionRule, type ValidationIssue } from './issues';

/** Spec "messageType must align with session status", with the sender each type needs ("none" = the council itself). */
const turnRules: Readonly<
  Record<
    MessageTurn['messageType'],
    { readonly status: SessionStatus; readonly senders: ReadonlyArray<ParticipantType | 'none'> }
  >
> = {
  question: { status: 'clarifying', senders: ['persona', 'none'] },
  answer: { status: 'clarifying', senders: ['user'] },
  discussion: { status: 'debating', senders: ['persona'] },
  conclusion: { status: 'final', senders: ['persona'] },
  assumption_statement: { status: 'clarifying', senders: ['none'] },
};

/** Each turn was made in the status its type allows, by the kind of participant its type allows. */
export const messageTypeRules: SessionRule = session => {
  const participantTypes = new Map(session.participants.map(p => [p.participantId, p.type]));
  const issues: ValidationIssue[] = [];
  session.messageTurns.forEach((turn, index) => {
    const rule = turnRules[turn.messageType];
    if (turn.sessionStatus !== rule.status) {
      issues.push(
        issueAt(
          ['messageTurns', index, 'sessionStatus'],
          `a ${turn.messageType} turn is only allowed while ${rule.status}, not ${turn.sessionStatus}`,
        ),
      );
    }
    const senderId = 'senderId' in turn ? turn.senderId : undefined;
    const senderType = senderId === undefined ? 'none' : participantTypes.get(senderId);
    if (senderType !== undefined && !rule.senders.includes(senderType)) {
      const expected = rule.senders.map(s => (s === 'none' ? 'the council' : `a ${s}`)).join(' or ');
      issues.push(
        issueAt(['messageTurns', index, 'senderId'], `a ${turn.messageType} turn must come from ${expected}`),
      );
    }
  });
  return issues;
};
