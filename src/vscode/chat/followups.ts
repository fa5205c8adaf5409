import type * as vscode from 'vscode';
import { SLASH } from '../../core/council/chatIntent';
import { readCouncilMetadata } from './councilResult';

function followup(label: string, command: string): vscode.ChatFollowup {
  return { prompt: label, label, command };
}

/** The buttons under a council answer: each moves the session exactly as its label says. */
export function councilFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const metadata = readCouncilMetadata(result);
  if (!metadata) return [];
  const { actions } = metadata;
  const buttons: vscode.ChatFollowup[] = [];
  if (actions.retry) buttons.push(followup('Try again', SLASH.retry));
  if (actions.acceptRecommended) buttons.push(followup('Accept recommended answer', SLASH.accept));
  if (actions.answerQuestion) {
    buttons.push(followup('Skip this question', SLASH.skip));
    buttons.push(followup('Skip the remaining questions (proceed on assumptions)', SLASH.skipAll));
  }
  if (actions.askMore) buttons.push(followup('Ask more questions', SLASH.more));
  if (actions.revisit) buttons.push(followup('Revisit skipped questions', SLASH.revisit));
  if (actions.extend) buttons.push(followup('Extend the debate', SLASH.extend));
  if (actions.plan) buttons.push({ prompt: '', label: 'Plan this', command: SLASH.plan });
  if (metadata.sessionId) buttons.push(followup('Show the assumption log', SLASH.assumptions));
  buttons.push({ prompt: '', label: 'Start a new session', command: SLASH.newSession });
  return buttons;
}
