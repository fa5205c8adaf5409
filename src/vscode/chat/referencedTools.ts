import * as vscode from 'vscode';
import { ToolCall } from '@vscode/chat-extension-utils';
import { renderPrompt, type ITokenizer } from '@vscode/prompt-tsx';
import type { GroundingTool } from '../../core/council/workspaceGrounding';
import { renderedText } from '../../core/llm/prompting/render';
import { forwardableSchema } from '../../core/llm/foreignToolSchema';

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

/** The `#` tools Council forwards, and a note for each one it left out. */
export interface ReferencedTools {
  readonly tools: GroundingTool[];
  /** One sentence per tool left out (its schema cannot be made portable), for the response. */
  readonly notes: string[];
}

/**
 * The tools the user named with `#` in `request`, for the personas' look-up loop: described as VS Code describes
 * them, with their input schema normalized as Copilot does for its own requests (forwardableSchema: a schema
 * Gemini rejects fails the whole request), run through `vscode.lm.invokeTool` with the request's invocation token,
 * so VS Code asks the user to confirm a tool that needs it (read-only ones run without asking). Tools VS Code no
 * longer offers are left out silently; a tool whose schema cannot be made portable is left out with a note.
 */
export function referencedTools(
  request: Pick<vscode.ChatRequest, 'toolReferences' | 'toolInvocationToken'>,
): ReferencedTools {
  const named = new Set(request.toolReferences.map(ref => ref.name));
  const tools: GroundingTool[] = [];
  const notes: string[] = [];
  for (const tool of vscode.lm.tools.filter(t => named.has(t.name))) {
    const forwarded = forwardableSchema(tool.inputSchema);
    if (!forwarded.ok) {
      notes.push(`Council left out #${tool.name}: ${forwarded.reason}.`);
      continue;
    }
    tools.push({
      definition: { name: tool.name, description: tool.description, inputSchema: forwarded.schema },
      invoke: (input, token) =>
        invokeAsText(
          tool.name,
          typeof input === 'object' && input !== null ? input : {},
          request.toolInvocationToken,
          token as vscode.CancellationToken,
        ),
    });
  }
  return { tools, notes };
}
