import * as vscode from 'vscode';
import type { GroundingTool } from '../core/council/workspaceGrounding';

/** The text parts of a tool result, joined. */
function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.flatMap(part => (part instanceof vscode.LanguageModelTextPart ? [part.value] : [])).join('\n');
}

/**
 * The tools the user named with `#` in `request`, for the personas' look-up loop: described as VS Code describes
 * them, run through `vscode.lm.invokeTool` with the request's invocation token, so VS Code asks the user to
 * confirm a tool that needs it (read-only ones run without asking). Tools VS Code no longer offers are left out.
 */
export function referencedTools(request: Pick<vscode.ChatRequest, 'toolReferences' | 'toolInvocationToken'>): GroundingTool[] {
  const named = new Set(request.toolReferences.map(ref => ref.name));
  return vscode.lm.tools
    .filter(tool => named.has(tool.name))
    .map(tool => ({
      definition: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema ?? { type: 'object', properties: {} } },
      invoke: async (input, token) =>
        resultText(
          await vscode.lm.invokeTool(
            tool.name,
            { input: typeof input === 'object' && input !== null ? input : {}, toolInvocationToken: request.toolInvocationToken },
            token as vscode.CancellationToken,
          ),
        ),
    }));
}
