import type { CouncilCommand } from '../core/council/commands';
import { newCouncilSession, runCouncilTurn } from '../core/council/councilTurn';
import type { CouncilDeps } from '../core/council/ports';
import type { SessionLog } from '../core/council/sessionLog';
import type { ClarificationQuestion } from '../core/session/clarification';
import { SessionLimits, type SessionLimitsInit } from '../core/session/limits';
import { activeQuestion } from '../core/session/selectors';

/*
 * `council ask` and the commands that resume a session (retry, extend, revisit, more): one council session run
 * through the same core turns the chat and the VS Code tools run, up to its answer or to where something stopped it.
 * Host-free: the terminal, the files and the model come in as functions.
 */

/** How the person at the terminal answered a clarifying question. */
export type QuestionReply =
  { readonly kind: 'accept' } | { readonly kind: 'answer'; readonly text: string } | { readonly kind: 'skip' };

export interface RunOptions {
  readonly deps: CouncilDeps;
  /** Asks one question; absent (`--yes`): every recommended answer becomes a logged assumption, nobody is waited for. */
  readonly ask?: (question: ClarificationQuestion) => Promise<QuestionReply>;
}

export interface AskOptions extends RunOptions {
  readonly decision: string;
  /** The session's limits (default: the core's). */
  readonly limits?: SessionLimitsInit;
  readonly userId?: string;
}

/** Where a run left its session: `stopped` is what stopped it (a failure, Ctrl+C); the session is saved either way. */
export interface SessionRun {
  readonly log: SessionLog;
  readonly stopped?: unknown;
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

/** Runs a new session to its answer, or to where something stopped it. */
export async function askCouncil(options: AskOptions): Promise<SessionRun> {
  const { deps } = options;
  const log = newCouncilSession(
    {
      request: options.decision.trim(),
      userId: options.userId ?? 'cli',
      limits: SessionLimits.parse(options.limits ?? {}),
    },
    deps,
  );
  await deps.persist?.(log.stored);
  return continueCouncil(log, [{ kind: 'retry' }], options);
}

/**
 * Applies `commands` to a stored session (the typed continuations: retry, extend, revisit, more), then asks each
 * question that opens until the answer. Whatever stops it is returned with the session, saved as it stands.
 */
export async function continueCouncil(
  log: SessionLog,
  commands: readonly CouncilCommand[],
  options: RunOptions,
): Promise<SessionRun> {
  const { deps } = options;
  try {
    for (const command of commands) await runCouncilTurn(log, command, deps);
    for (let question = activeQuestion(log.snapshot); question; question = activeQuestion(log.snapshot)) {
      const command: CouncilCommand = options.ask ? commandFor(await options.ask(question)) : { kind: 'skip' };
      await runCouncilTurn(log, command, deps);
    }
    return { log };
  } catch (stopped) {
    await deps.persist?.(log.stored);
    return { log, stopped };
  }
}
