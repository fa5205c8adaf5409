import type * as vscode from 'vscode';
import { chatFollowups } from './chatNextSteps';
import { readCouncilMetadata } from './councilResult';

/** The buttons under a council answer: its next steps (decided in the core), each moving the session as its label says. */
export function councilFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  return chatFollowups(readCouncilMetadata(result)?.next ?? []);
}
