import * as vscode from 'vscode';
import { QUESTION_TOOL, questionHeader, questionToolInput, readQuestionReply } from '../../core/council/questionTool';
import type { AskQuestion } from '../../core/council/toolSessionRun';

/**
 * How the tools put a clarifying question to the user: through VS Code's question tool, when it exists in this harness
 * and the call came from a chat (undefined otherwise: the agent asks, from the questions in the result).
 */
export function questionAsker(
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined,
  token: vscode.CancellationToken,
): AskQuestion | undefined {
  if (!toolInvocationToken || !vscode.lm.tools.some(tool => tool.name === QUESTION_TOOL)) return undefined;
  return async (question, position, total) => {
    const header = questionHeader(position, total);
    const input = questionToolInput(question, header);
    const result = await vscode.lm.invokeTool(QUESTION_TOOL, { input, toolInvocationToken }, token);
    const text = result.content.map(part => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    return readQuestionReply(text, header, question.recommendedAnswer);
  };
}
