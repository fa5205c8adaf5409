import type { ClarificationQuestion } from '../session/clarification';
import { activeQuestion, pendingQuestions } from '../session/selectors';
import { LanguageModelFailure } from '../llm/languageModel';
import { describeTurnStop } from '../llm/turnStop';
import type { CouncilCommand } from './commands';
import { runCouncilTurn } from './councilTurn';
import type { CouncilDeps } from './ports';
import type { SessionLog } from './sessionLog';
import { TOOL, type QuestionsAsked } from './toolSession';

/*
 * What a tool call does to a session, the same from every door (the VS Code tools, the MCP server): it runs the call's
 * commands as the chat would, puts the open questions to the user one at a time where the door can ask, and says why
 * it stopped early in words an agent acts on. Only how a question reaches the user differs by door.
 */

/** A tool's session is continued by id, with the tool or in the chat. */
const TOOL_STOP = {
  kept: `The session is saved; \`${TOOL.deliberate}\` with its sessionId and "action": "retry" continues it.`,
  button: 'Try again',
} as const;

/** What the user did with one question put to them. */
export type QuestionReply =
  | { readonly kind: 'answered'; readonly command: CouncilCommand & { readonly kind: 'answer' | 'accept' } }
  /** Skipped by the user, or nobody could answer (`unavailable`): either way a logged assumption. */
  | { readonly kind: 'skipped'; readonly unavailable: boolean }
  /** The user stopped the asking: the questions stay open. */
  | { readonly kind: 'cancelled' };

/** How a door puts one question to the user, the `position`th of `total` (one active question at a time, spec 004). */
export type AskQuestion = (question: ClarificationQuestion, position: number, total: number) => Promise<QuestionReply>;

/** How a tool call left a session: why it stopped early, how the asked questions went, the answer from the vote. */
export interface SessionAdvance {
  readonly stopped?: string;
  readonly asked?: QuestionsAsked;
  /** The answer the council wrote from the vote (its own request failed). */
  readonly fromVote?: string;
  /** A stop that is neither the model's nor the user's: the door logs or raises it (`stopped` says so to the agent). */
  readonly internal?: { readonly error: unknown; readonly detail: string };
}

/**
 * Runs a tool call's `commands` on `log`, the last one on to the debate and the answer unless `stopBeforeDebate`, then,
 * while the session is clarifying and the door can `ask`, puts its questions to the user one at a time and records
 * each reply as the chat would (an answer, or a skip that becomes a logged assumption).
 */
export async function advanceSession(
  log: SessionLog,
  commands: readonly CouncilCommand[],
  deps: CouncilDeps,
  options: { readonly stopBeforeDebate: boolean; readonly ask?: AskQuestion },
): Promise<SessionAdvance> {
  const { stopBeforeDebate, ask } = options;
  try {
    for (const [i, command] of commands.entries()) {
      const report = await runCouncilTurn(log, command, deps, {
        stopBeforeDebate: stopBeforeDebate || i < commands.length - 1,
      });
      // The answer's own request failed: the council answered from the vote; the agent gets that and Try again.
      if (report.answerPending !== undefined)
        return {
          stopped: `The answer's own request failed: ${report.answerPending.reason} ${TOOL_STOP.kept}`,
          fromVote: report.answerPending.answer,
        };
    }
    return ask && log.state === 'clarifying' ? await askEach(log, deps, ask, stopBeforeDebate) : {};
  } catch (error) {
    // Why the run stopped, for the agent: the model's failure as the chat would say it, else a sentence.
    const stop = describeTurnStop(error, TOOL_STOP, deps.token.isCancellationRequested);
    if (stop.kind === 'cancelled') return { stopped: `It was cancelled. ${TOOL_STOP.kept}` };
    if (error instanceof LanguageModelFailure) return { stopped: stop.message };
    return {
      stopped: `Council stopped on an internal problem (the details are in the Council output channel). ${TOOL_STOP.kept}`,
      internal: { error, detail: stop.detail },
    };
  }
}

/** Puts the open questions to the user through `ask` until none is open or the user stops the asking. */
async function askEach(
  log: SessionLog,
  deps: CouncilDeps,
  ask: AskQuestion,
  stopBeforeDebate: boolean,
): Promise<SessionAdvance> {
  const asked = { answered: 0, skipped: 0, unavailable: false };
  const total = pendingQuestions(log.snapshot).length;
  for (let position = 1; log.state === 'clarifying'; position++) {
    const question = activeQuestion(log.snapshot);
    if (!question) break;
    const reply = await ask(question, position, Math.max(total, position));
    if (reply.kind === 'cancelled')
      return {
        stopped: 'The user cancelled the clarifying questions; the session is saved with its questions open.',
        asked,
      };
    if (reply.kind === 'answered') asked.answered++;
    else {
      asked.skipped++;
      asked.unavailable ||= reply.unavailable;
    }
    await runCouncilTurn(log, reply.kind === 'answered' ? reply.command : { kind: 'skip' }, deps, { stopBeforeDebate });
  }
  return { asked };
}
