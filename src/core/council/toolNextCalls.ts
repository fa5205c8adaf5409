import type { NextStep } from '../nextSteps';
import { TOOL } from './toolSession';

/*
 * The tools' door to the next steps (core/nextSteps.ts): each step as the exact tool call that takes it, for an agent
 * to offer the user. Text only, so the core's tool results (deliberation.ts) and the deep-work tools share it.
 */

/** A next step as a tool call: what to call it for the user, the tool, its exact input, and a note on filling it. */
export interface NextCall {
  readonly label: string;
  readonly tool: string;
  readonly input: object;
  readonly note?: string;
}

/**
 * The tool call that takes a next step, or none for a step a call does not take on its own (accepting or skipping a
 * question is part of answering: `answers` carries the recommended answer, or leaves the question out; the assumption
 * log is in every result). Every step is named here: a new kind fails to compile until the tools offer it.
 */
function nextCall(step: NextStep): NextCall | undefined {
  switch (step.kind) {
    case 'answer':
      return {
        label: 'Answer the open questions',
        tool: TOOL.deliberate,
        input: { sessionId: step.sessionId, answers: [{ questionId: step.questionId, answer: '…' }] },
      };
    case 'accept':
    case 'skip':
    case 'assumptions':
      return undefined;
    case 'skipAll':
      return {
        label: 'Skip the remaining questions (proceed on assumptions)',
        tool: TOOL.deliberate,
        input: { sessionId: step.sessionId, answers: [] },
      };
    case 'more':
      return {
        label: 'Ask more questions',
        tool: TOOL.deliberate,
        input: { sessionId: step.sessionId, action: 'more' },
      };
    case 'revisit':
      return {
        label: 'Revisit skipped questions',
        tool: TOOL.deliberate,
        input: { sessionId: step.sessionId, action: 'revisit' },
      };
    case 'extend':
      return {
        label: 'Extend the debate',
        tool: TOOL.deliberate,
        input: { sessionId: step.sessionId, action: 'extend' },
      };
    case 'retry': {
      if ('sessionId' in step.of)
        return {
          label: 'Try again (continue where it stopped, repeating nothing)',
          tool: TOOL.deliberate,
          input: { sessionId: step.of.sessionId, action: 'retry' },
        };
      const { runId, command } = step.of.run;
      return {
        label: step.after === 'failure' ? 'Try again' : 'Resume',
        tool: command === 'plan' ? TOOL.plan : TOOL.workflow,
        input: { runId, action: 'resume' },
      };
    }
    case 'choose': {
      const { runId, command } = step.run;
      return {
        label: step.choice.label,
        tool: command === 'plan' ? TOOL.plan : TOOL.workflow,
        input: { runId, option: step.choice.option },
        ...(step.choice.takesFeedback ? { note: 'add "feedback" with the user\'s notes' } : {}),
      };
    }
    case 'record':
      return {
        label: `Record this decision (a decision record in the repository${step.supersedes ? `, superseding the accepted record ${step.supersedes.path}, which the council goes against` : ''}; the user reviews the file and confirms)`,
        tool: TOOL.deliberate,
        input: { sessionId: step.sessionId, action: 'record' },
      };
    case 'planThis':
      return {
        label: 'Plan this (turn the answer into tickets)',
        tool: TOOL.plan,
        input: { sessionId: step.sessionId },
      };
    case 'new':
      // An agent starts a session with council_open whenever it has a question; no call to offer.
      return undefined;
    default: {
      const unknown: never = step;
      return unknown;
    }
  }
}

/**
 * The steps a call takes, one line each ("- Label: `tool` with {input}") under a heading that tells the agent to ask
 * the user first; empty when there is none.
 */
export function nextCallsText(steps: readonly NextStep[]): string {
  const lines = steps.flatMap(step => {
    const call = nextCall(step);
    return call
      ? [`- ${call.label}: \`${call.tool}\` with ${JSON.stringify(call.input)}${call.note ? ` (${call.note})` : ''}`]
      : [];
  });
  return lines.length > 0
    ? `Next steps to offer the user (each is one tool call; ask the user which, then make that one call):\n${lines.join('\n')}`
    : '';
}
