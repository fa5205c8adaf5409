import * as vscode from 'vscode';
import { runCouncilTurn } from '../../core/council/councilTurn';
import { QUESTION_TOOL, questionHeader, questionToolInput, readQuestionReply } from '../../core/council/questionTool';
import type { CouncilDeps } from '../../core/council/ports';
import type { SessionLog } from '../../core/council/sessionLog';
import { activeQuestion, pendingQuestions } from '../../core/session/selectors';
import type { QuestionsAsked } from '../../core/council/toolSession';

/** Whether the question tool can reach the user here: it exists in this harness and the call came from a chat. */
export function canAskInChat(toolInvocationToken: vscode.ChatParticipantToolToken | undefined): boolean {
  return toolInvocationToken !== undefined && vscode.lm.tools.some(tool => tool.name === QUESTION_TOOL);
}

/**
 * Puts the session's open clarifying questions to the user through VS Code's question tool, one call per question
 * (one active question at a time), and records each reply as the chat would: an answer, or a skip that becomes a
 * logged assumption. Stops before the debate: the answers are recorded, the debate is the next tool's to confirm.
 */
export async function askOpenQuestions(
  log: SessionLog,
  deps: CouncilDeps,
  toolInvocationToken: vscode.ChatParticipantToolToken,
  token: vscode.CancellationToken,
): Promise<QuestionsAsked> {
  let answered = 0;
  let skipped = 0;
  let unavailable = false;
  const total = pendingQuestions(log.snapshot).length;
  for (let position = 1; log.state === 'clarifying'; position++) {
    const question = activeQuestion(log.snapshot);
    if (!question) break;
    const header = questionHeader(position, Math.max(total, position));
    const result = await vscode.lm.invokeTool(
      QUESTION_TOOL,
      { input: questionToolInput(question, header), toolInvocationToken },
      token,
    );
    const text = result.content.map(part => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    const reply = readQuestionReply(text, header, question.recommendedAnswer);
    if (reply.kind === 'answered') answered++;
    else {
      skipped++;
      unavailable ||= reply.unavailable;
    }
    await runCouncilTurn(log, reply.kind === 'answered' ? reply.command : { kind: 'skip' }, deps, {
      stopBeforeDebate: true,
    });
  }
  return { answered, skipped, unavailable };
}
