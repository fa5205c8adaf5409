import type { SessionEvent, SessionEventType } from './events';
import type { SessionStatus } from './enums';
import { firstRejection } from './guards';
import { sessionMachine, type SessionSnapshot } from './machine';

const eventDescriptions: Readonly<Record<SessionEventType, string>> = {
  PERSONAS_SELECTED: 'Selecting personas',
  CLARIFICATION_STARTED: 'Starting clarification',
  DEBATE_REQUESTED: 'Starting the debate',
  QUESTION_ANSWERED: 'Answering a question',
  QUESTION_SKIPPED: 'Skipping a question',
  REMAINING_SKIPPED: 'Skipping the remaining questions',
  MORE_QUESTIONS_ADDED: 'Asking more questions',
  SKIPPED_REVISITED: 'Revisiting skipped questions',
  CYCLE_STARTED: 'Starting a debate cycle',
  PERSONA_SPOKE: "Adding a persona's contribution",
  CYCLE_CONCLUDED: 'Concluding a debate cycle',
  DEBATE_EXTENDED: 'Extending the debate',
  CONCLUSION_RECORDED: 'Recording a conclusion',
  FINAL_ANSWER_READY: 'Giving the final answer',
  CANCELLED: 'Cancelling',
};

const statePhrases: Readonly<Record<SessionStatus, string>> = {
  created: 'before the council is under way',
  clarifying: 'while clarification questions are open',
  debating: 'while the council is debating',
  final: 'while the final answer is being prepared',
  completed: 'once the session is complete',
  cancelled: 'once the session is cancelled',
};

function stateHandles(state: SessionStatus, type: SessionEventType): boolean {
  return sessionMachine.states[state]?.ownEvents.includes(type) ?? false;
}

/**
 * Why the session would refuse `event` now, in words for the user; undefined when it would accept it.
 * The reason comes from the same checks the machine's guards run.
 */
export function explainRejection(snapshot: SessionSnapshot, event: SessionEvent): string | undefined {
  if (snapshot.status === 'active' && snapshot.can(event)) return undefined;
  const state = snapshot.value;
  if (state === 'cancelled') return 'This session was cancelled; start a new request to continue.';
  if (!stateHandles(state, event.type)) {
    if (state === 'completed') return 'This session is complete; start a new request to continue.';
    return `${eventDescriptions[event.type]} is not possible ${statePhrases[state]}.`;
  }
  return firstRejection(snapshot.context, event) ?? `${eventDescriptions[event.type]} is not possible right now.`;
}
