import { enoughDebaters } from '../../../src/core/session/limits';
import type { MessageTurn } from '../../../src/core/session/turns';
import { issueAt, type SessionRule, type ValidationIssue } from './issues';

/** Spec "CouncilDiscussion" validation: who debates, who spoke, and the positions each ended cycle records. */
export const discussionRules: SessionRule = session => {
  const issues: ValidationIssue[] = [];
  const personaCount = session.participants.filter(p => p.type === 'persona').length;
  const turns = new Map(session.messageTurns.map(t => [t.turnId, t]));

  session.discussions.forEach((d, index) => {
    const seated = new Set(d.participatingPersonaIds);
    if (seated.size !== d.participatingPersonaIds.length)
      issues.push(issueAt(['discussions', index, 'participatingPersonaIds'], 'a persona is listed twice'));
    if (!enoughDebaters(seated.size, personaCount)) {
      issues.push(
        issueAt(
          ['discussions', index, 'participatingPersonaIds'],
          'a true discussion needs at least two personas when the council has more than one',
        ),
      );
    }

    const spoke = new Set<string>();
    d.messageTurnIds.forEach((turnId, i) => {
      const turn: MessageTurn | undefined = turns.get(turnId);
      if (turn === undefined) return;
      if (turn.messageType !== 'discussion' || turn.discussionId !== d.discussionId) {
        issues.push(issueAt(['discussions', index, 'messageTurnIds', i], 'must be a discussion turn of this cycle'));
        return;
      }
      if (!seated.has(turn.senderId))
        issues.push(issueAt(['discussions', index, 'messageTurnIds', i], 'the speaker is not part of this cycle'));
      if (spoke.has(turn.senderId))
        issues.push(issueAt(['discussions', index, 'messageTurnIds', i], 'a persona speaks once per cycle'));
      spoke.add(turn.senderId);
    });

    if (d.status === 'in_progress') return;
    // A seat whose request failed or was not paid for is recorded as absent: it has no position in the cycle.
    const absent = new Set((d.absent ?? []).map(a => a.personaId));
    if (d.participatingPersonaIds.some(id => !spoke.has(id) && !absent.has(id))) {
      issues.push(issueAt(['discussions', index], 'a cycle ends only after every participating persona has spoken'));
    }
    const positioned = d.positions.map(p => p.personaId);
    if (
      positioned.length !== seated.size - absent.size ||
      new Set(positioned).size !== positioned.length ||
      positioned.some(id => !seated.has(id))
    ) {
      issues.push(
        issueAt(['discussions', index, 'positions'], 'an ended cycle records one position per participating persona'),
      );
    }
  });

  const listed = new Map(session.discussions.flatMap(d => d.messageTurnIds.map(id => [id, d] as const)));
  session.messageTurns.forEach((turn, index) => {
    if (turn.messageType !== 'discussion') return;
    const discussion = session.discussions.find(d => d.discussionId === turn.discussionId);
    if (discussion === undefined) return;
    if (listed.get(turn.turnId) !== discussion)
      issues.push(issueAt(['messageTurns', index], "must be listed in its cycle's messageTurnIds"));
    if (turn.relatedCycleOrRound.number !== discussion.cycleNumber) {
      issues.push(
        issueAt(
          ['messageTurns', index, 'relatedCycleOrRound', 'number'],
          `must be ${discussion.cycleNumber}, the cycle's number`,
        ),
      );
    }
  });
  return issues;
};
