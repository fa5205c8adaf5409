import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { CheckpointChoice } from '../../core/nextSteps';

/*
 * A paused run's checkpoint put to the user by MCP elicitation (form mode): its choices as one single-select field
 * (the one that continues is the default) and, when a choice takes it, a free-text field for what to change. The
 * user's accept picks a choice; decline leaves the run paused for the agent; cancel stops the run where it is.
 */

/** How long a person may take over a checkpoint (they review a stage's findings first): the SDK's default is 60 s. */
export const CHECKPOINT_ANSWER_TIMEOUT_MS = 30 * 60_000;

/** What the user did with the form. */
export type CheckpointReply =
  | { readonly kind: 'pick'; readonly choice: CheckpointChoice; readonly feedback: string }
  | { readonly kind: 'declined' }
  | { readonly kind: 'cancelled' };

/** Each choice's name in the form: its label, numbered when two labels are the same. */
function shownNames(choices: readonly CheckpointChoice[]): string[] {
  const labels = choices.map(choice => choice.label);
  const unique = new Set(labels).size === labels.length;
  return choices.map(choice => (unique ? choice.label : `${choice.option}. ${choice.label}`));
}

/** The choice `--yes` and an empty answer take: the one that continues, else the first. */
function defaultChoice(choices: readonly CheckpointChoice[]): CheckpointChoice | undefined {
  return choices.find(choice => choice.action === 'continue') ?? choices[0];
}

/** The form for a checkpoint: `report` says what the stage found and what the run has spent. */
export function checkpointForm(report: string, choices: readonly CheckpointChoice[]): ElicitRequestFormParams {
  const names = shownNames(choices);
  const fallback = defaultChoice(choices);
  const withFeedback = choices.filter(choice => choice.takesFeedback).map(choice => choice.label);
  return {
    mode: 'form',
    message: `${report}\n\nChoose how the run goes on. Decline to leave it paused here (your agent is told how to go on); cancel to stop it here (the run is saved).`,
    requestedSchema: {
      type: 'object',
      properties: {
        choice: {
          type: 'string',
          title: 'Next',
          enum: names,
          ...(fallback ? { default: names[choices.indexOf(fallback)] } : {}),
        },
        ...(withFeedback.length
          ? {
              feedback: {
                type: 'string',
                title: 'What to change',
                description: `Read with ${withFeedback.join(' or ')}; ignored otherwise.`,
              },
            }
          : {}),
      },
      required: ['choice'],
    },
  };
}

/** The user's reply as a choice; an accepted form without a choice takes the default. */
export function checkpointReply(result: ElicitResult, choices: readonly CheckpointChoice[]): CheckpointReply {
  if (result.action === 'decline') return { kind: 'declined' };
  if (result.action === 'cancel') return { kind: 'cancelled' };
  const names = shownNames(choices);
  const picked = result.content?.['choice'];
  const choice = choices[names.findIndex(name => name === picked)] ?? defaultChoice(choices);
  if (!choice) return { kind: 'declined' };
  const feedback = result.content?.['feedback'];
  return {
    kind: 'pick',
    choice,
    feedback: choice.takesFeedback && typeof feedback === 'string' ? feedback.trim() : '',
  };
}
