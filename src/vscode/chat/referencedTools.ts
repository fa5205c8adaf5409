import * as vscode from 'vscode';
import { ToolCall } from '@vscode/chat-extension-utils';
import { renderPrompt, type ITokenizer } from '@vscode/prompt-tsx';
import type { GroundingTool } from '../../core/council/workspaceGrounding';
import { renderedText } from '../../core/llm/prompting/render';

/** Rough token estimate (4 characters a token): a budget the tool may size its result to, not an exact count. */
const charTokenizer: ITokenizer = {
  tokenLength: text => Math.ceil(text.length / 4),
  countMessageTokens: async message => Math.ceil(renderedText(message).length / 4) + 3,
};

/**
 * The render budget. Generous on purpose: the look-up transcript is cut to `maxTranscriptChars` later, whereas a
 * result larger than a tight budget would make prompt-tsx fail the call instead of cutting it.
 */
const RESULT_TOKENS = 1_000_000;

let calls = 0;

/**
 * Runs `name` as chat-extension-utils' `ToolCall` prompt element does (`vscode.lm.invokeTool` with the request's
 * invocation token) and renders its result as text: text parts
 * and prompt-tsx parts (what built-in tools such as `#codebase` return) alike.
 */
export async function invokeAsText(
  name: string,
  input: object,
  invocationToken: vscode.ChatParticipantToolToken | undefined,
  token: vscode.CancellationToken,
): Promise<string> {
  const call = new vscode.LanguageModelToolCallPart(`council-${++calls}`, name, input);
  const rendered = await renderPrompt(
    ToolCall,
    { call, invocationToken },
    { modelMaxPromptTokens: RESULT_TOKENS },
    charTokenizer,
    undefined,
    token,
    'none',
  );
  return rendered.messages.map(renderedText).join('\n');
}

/**
 * The tools the user named with `#` in `request`, for the personas' look-up loop: described as VS Code describes
 * them, run through `vscode.lm.invokeTool` with the request's invocation token, so VS Code asks the user to
 * confirm a tool that needs it (read-only ones run without asking). Tools VS Code no longer offers are left out.
 */
export function referencedTools(
  request: Pick<vscode.ChatRequest, 'toolReferences' | 'toolInvocationToken'>,
): GroundingTool[] {
  const named = new Set(request.toolReferences.map(ref => ref.name));
  return vscode.lm.tools
    .filter(tool => named.has(tool.name))
    .map(tool => ({
      definition: {
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
      },
      invoke: (input, token) =>
        invokeAsText(
          tool.name,
          typeof input === 'object' && input !== null ? input : {},
          request.toolInvocationToken,
          token as vscode.CancellationToken,
        ),
    }));
}
