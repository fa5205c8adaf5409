import type { SessionEvent } from '../../session/events';
import type { SessionSnapshot } from '../../session/machine';
import { findCurrentDiscussion } from '../../session/queries';
import { SKIP_CLARIFICATION } from '../commands';
import { contributionBlock, untrusted } from './markdown';

/*
 * The chat's view of the session log: what the user reads when the session records an event. A council turn
 * passes every event it records through here (CouncilOutput), so a message is worded, and changed, in one place;
 * the steps only record.
 */

/** Markdown for the chat; `visible`: it must stay in sight (see `CouncilOutput.visible`). */
export interface ShownText {
  readonly markdown: string;
  readonly visible?: boolean;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** What the chat shows for `event`, read against the session just after it was recorded; undefined: nothing. */
export function eventText(event: SessionEvent, after: SessionSnapshot): ShownText | undefined {
  const context = after.context;
  switch (event.type) {
    case 'PERSONAS_SELECTED':
      return {
        markdown: `**Council:** ${event.participants.map(p => p.name).join(', ')}. _${untrusted(event.selection.reason)}_\n\n`,
        visible: true,
      };
    case 'DEBATE_REQUESTED':
      // `/debate` asked for no questions; otherwise the council found nothing to ask.
      return context.metadata.featureFlags?.includes(SKIP_CLARIFICATION)
        ? undefined
        : { markdown: '_No clarification needed: the council goes straight to the debate._\n\n' };
    case 'QUESTION_SKIPPED':
      return { markdown: `_Skipped. Logged as an assumption: ${untrusted(event.assumption.assumption)}_\n\n` };
    case 'REMAINING_SKIPPED':
      return {
        markdown: `_Skipped ${plural(event.assumptions.length, 'question')}; the council proceeds on their recommended answers as assumptions._\n\n`,
      };
    case 'MORE_QUESTIONS_ADDED':
      return {
        markdown: `_Added ${event.questions.length} more question${event.questions.length === 1 ? '' : 's'} (round ${context.clarificationRounds})._\n\n`,
      };
    case 'DEBATE_EXTENDED':
      return { markdown: `_The debate continues, up to ${context.limits.adminMaxDebateCycles} cycles._\n\n` };
    case 'CANCELLED':
      return { markdown: 'Session cancelled. Start a new request whenever you like.\n' };
    case 'PERSONA_SPOKE': {
      const turn = event.turn;
      const name = context.participants.find(p => p.participantId === turn.senderId)?.name ?? turn.senderId;
      const cycle = findCurrentDiscussion(context)?.cycleNumber ?? context.debateCycles;
      const model = typeof turn.metadata?.model === 'string' ? turn.metadata.model : undefined;
      const contribution = {
        position: turn.position,
        argument: turn.content,
        changedPosition: turn.changedPosition,
        changeReason: turn.changeReason,
        concerns: turn.concerns ?? [],
      };
      return { markdown: contributionBlock(name, cycle, contribution, model) };
    }
    default:
      return undefined;
  }
}
