import type { CouncilCommand } from '../core/council/commands';
import { newCouncilSession, runCouncilTurn } from '../core/council/councilTurn';
import type { CouncilDeps } from '../core/council/ports';
import type { SessionLog } from '../core/council/sessionLog';
import type { ClarificationQuestion } from '../core/session/clarification';
import { SessionLimits } from '../core/session/limits';
import { activeQuestion } from '../core/session/selectors';

/*
 * `council ask`: one council session from a decision to its answer, through the same core turns the chat and the
 * VS Code tools run. Host-free: the terminal, the files and the model come in as functions.
 */

/** How the person at the terminal answered a clarifying question. */
export type QuestionReply =
  { readonly kind: 'accept' } | { readonly kind: 'answer'; readonly text: string } | { readonly kind: 'skip' };

export interface AskOptions {
  readonly decision: string;
  readonly deps: CouncilDeps;
  /** Asks one question; absent (`--yes`): every recommended answer becomes a logged assumption, nobody is waited for. */
  readonly ask?: (question: ClarificationQuestion) => Promise<QuestionReply>;
  readonly userId?: string;
}

function commandFor(reply: QuestionReply): CouncilCommand {
  switch (reply.kind) {
    case 'accept':
      return { kind: 'accept' };
    case 'answer':
      return { kind: 'answer', text: reply.text };
    case 'skip':
      return { kind: 'skip' };
  }
}

/** Runs a new session to its answer (or to where a failure stopped it: the error propagates, the session is saved). */
export async function askCouncil(options: AskOptions): Promise<SessionLog> {
  const { deps } = options;
  const log = newCouncilSession(
    { request: options.decision.trim(), userId: options.userId ?? 'cli', limits: SessionLimits.parse({}) },
    deps,
  );
  await deps.persist?.(log.stored);
  await runCouncilTurn(log, { kind: 'retry' }, deps);
  for (let question = activeQuestion(log.snapshot); question; question = activeQuestion(log.snapshot)) {
    const command: CouncilCommand = options.ask ? commandFor(await options.ask(question)) : { kind: 'skip' };
    await runCouncilTurn(log, command, deps);
  }
  return log;
}
