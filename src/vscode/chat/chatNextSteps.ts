import type * as vscode from 'vscode';
import { SLASH } from '../../core/council/chatIntent';
import { runControlText } from '../../core/deepWork/runControl';
import type { NextStep } from '../../core/nextSteps';

function button(label: string, command: string, prompt = label): vscode.ChatFollowup {
  return { prompt, label, command };
}

/**
 * The chat's button for a next step (its label, its slash command and the prompt after it); none for a step the
 * chat takes as typed text (answering a question). Every step is named here: a new kind fails to compile until the
 * chat shows it.
 */
export function chatFollowup(step: NextStep): vscode.ChatFollowup | undefined {
  switch (step.kind) {
    case 'answer':
      // The user types the answer in the chat.
      return undefined;
    case 'accept':
      return button('Accept recommended answer', SLASH.accept);
    case 'skip':
      return button('Skip this question', SLASH.skip);
    case 'skipAll':
      return button('Skip the remaining questions (proceed on assumptions)', SLASH.skipAll);
    case 'more':
      return button('Ask more questions', SLASH.more);
    case 'revisit':
      return button('Revisit skipped questions', SLASH.revisit);
    case 'extend':
      return button('Extend the debate', SLASH.extend);
    case 'retry': {
      const label = step.after === 'failure' ? 'Try again' : 'Resume';
      if ('sessionId' in step.of) return button(label, SLASH.retry, 'Try again');
      const { runId, command } = step.of.run;
      return button(label, command, runControlText({ kind: 'resume', runId, answer: '' }));
    }
    case 'choose': {
      const { runId, command } = step.run;
      const pick = { option: step.choice.option };
      return button(step.choice.label, command, runControlText({ kind: 'decide', runId, pick, feedback: '' }));
    }
    case 'record':
      return button(
        step.supersedes ? `Record this decision (supersedes record ${step.supersedes.number})` : 'Record this decision',
        SLASH.record,
        '',
      );
    case 'planThis':
      return button('Plan this', SLASH.plan, '');
    case 'assumptions':
      return button('Show the assumption log', SLASH.assumptions);
    case 'new':
      return button('Start a new session', SLASH.newSession, '');
    default: {
      const unknown: never = step;
      return unknown;
    }
  }
}

/** The buttons for `steps`, in their order. */
export function chatFollowups(steps: readonly NextStep[]): vscode.ChatFollowup[] {
  return steps.flatMap(step => chatFollowup(step) ?? []);
}

/**
 * For each checkpoint option that takes feedback, a link that puts the option's command in the chat input, so the
 * user types the feedback before sending (a button sends at once): its title and the partial query.
 */
export function feedbackQueries(steps: readonly NextStep[]): { readonly title: string; readonly query: string }[] {
  return steps.flatMap(step => {
    if (step.kind !== 'choose' || !step.choice.takesFeedback) return [];
    const { runId, command } = step.run;
    const text = runControlText({ kind: 'decide', runId, pick: { option: step.choice.option }, feedback: '' });
    return [{ title: `${step.choice.label}, with feedback…`, query: `@council /${command} ${text} ` }];
  });
}
