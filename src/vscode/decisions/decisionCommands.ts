import * as vscode from 'vscode';
import { listDecisions } from './listDecisions';
import { recordDecision, type RecordDecisionArgs } from './recordDecision';

export const DECISION_COMMAND = {
  record: 'council.recordDecision',
  list: 'council.listDecisions',
} as const;

/** `council.recordDecision` (the next step after a final answer) and `council.listDecisions` (the palette). */
export function registerDecisionCommands(): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(DECISION_COMMAND.record, (args: RecordDecisionArgs) => recordDecision(args)),
    vscode.commands.registerCommand(DECISION_COMMAND.list, () => listDecisions()),
  ];
}
