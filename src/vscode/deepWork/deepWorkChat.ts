import type * as vscode from 'vscode';
import type { RunCommand } from '../../core/nextSteps';
import type { AttachedItem } from '../../core/session/attachedItem';
import { feedbackQueries } from '../chat/chatNextSteps';
import { commandLink } from '../chat/inlineLinks';
import type { DeepWorkResultMetadata } from './deepWorkResult';
import type { DeepWorkAnswer, DeepWorkCall } from './deepWorkTurn';
import type { CouncilSettings } from '../settings';

/*
 * The chat's door to `/plan` and `/workflow`: what a chat request gives the deep-work turn, and how its answer is
 * shown (the report as Markdown, a failure in the error box, the next steps as buttons under the response).
 */

/**
 * The turn's call from a chat request: its model and token, the settings the participant read for the request, notes
 * written at once, progress in the response.
 */
export function chatCall(
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  attached: readonly AttachedItem[],
  settings: CouncilSettings,
): DeepWorkCall {
  return {
    model: request.model,
    toolInvocationToken: request.toolInvocationToken,
    token,
    settings,
    attached,
    say: markdown => stream.markdown(markdown),
    progress: message => stream.progress(message),
  };
}

/** The marker of `command`'s responses. */
function marker(command: RunCommand): { readonly plan: 1 } | { readonly workflow: 1 } {
  return command === 'plan' ? { plan: 1 } : { workflow: 1 };
}

/** Shows `answer` in the chat: its report, a link for each option that takes feedback, a failure in the error box. */
export function answerInChat(stream: vscode.ChatResponseStream, answer: DeepWorkAnswer): vscode.ChatResult {
  for (const part of answer.report) if (part !== '') stream.markdown(part);
  for (const { title, query } of feedbackQueries(answer.next)) {
    stream.markdown(commandLink(title, 'workbench.action.chat.open', [{ query, isPartialQuery: true }]));
    stream.markdown('\n\n');
  }
  const { run } = answer;
  const metadata: DeepWorkResultMetadata = {
    ...marker(answer.command),
    ...(run ? { runId: run.runId, status: run.status, ...(run.stage ? { stage: run.stage } : {}) } : {}),
    ...(answer.next.length > 0 ? { next: answer.next } : {}),
  };
  return answer.error ? { errorDetails: { message: answer.error }, metadata } : { metadata };
}
