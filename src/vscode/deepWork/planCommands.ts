import * as vscode from 'vscode';
import { applyTicketChanges, type ApplyTicketChangesArgs } from './applyTicketChanges';
import type { RunStore } from './runStore';

/** The deep-work commands' ids (package.json `contributes.commands`). */
export const PLAN_COMMAND = {
  planTask: 'council.planTask',
  applyTicketChanges: 'council.applyTicketChanges',
} as const;

/**
 * Registers "Council: Plan a Task" (asks for a goal, or takes `{ goal }`, and sends `@council /plan <goal>` in chat;
 * resolves with the chat result) and `council.applyTicketChanges` (the "Apply" button under a ticket's proposal).
 */
export function registerPlanCommands(runs: RunStore): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(PLAN_COMMAND.planTask, async (args?: { readonly goal?: string }) => {
      const goal =
        args?.goal ??
        (await vscode.window.showInputBox({
          title: 'Council: Plan a Task',
          prompt:
            'What should be planned? Council maps the code, writes tickets and proposes changes (nothing is applied without your confirmation).',
          placeHolder: 'e.g. Add input validation to the settings form',
          ignoreFocusOut: true,
        }));
      if (!goal?.trim()) return undefined;
      return vscode.commands.executeCommand<vscode.ChatResult | undefined>('workbench.action.chat.open', {
        query: `@council /plan ${goal.trim()}`,
        isPartialQuery: false,
        blockOnResponse: true,
      });
    }),
    vscode.commands.registerCommand(PLAN_COMMAND.applyTicketChanges, (args: ApplyTicketChangesArgs) =>
      applyTicketChanges(runs, args),
    ),
  ];
}
