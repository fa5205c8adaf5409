import * as vscode from 'vscode';
import type { ReadOnlyTools } from '../../core/workflow/engine/skills';
import { invokeAsText } from '../chat/referencedTools';
import { isReadOnlyTool, toolInput } from './skillToolRules';

/** The language-model tools a workflow's skills may name in this request: read-only ones, run as the user would. */
export function skillTools(toolInvocationToken: vscode.ChatParticipantToolToken | undefined): ReadOnlyTools {
  const available = () => vscode.lm.tools.filter(isReadOnlyTool);
  return {
    names: () => available().map(tool => tool.name),
    invoke: (name, args, token) =>
      invokeAsText(name, toolInput(args), toolInvocationToken, token as vscode.CancellationToken),
  };
}
