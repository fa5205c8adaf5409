import { randomUUID } from 'node:crypto';
import { systemClock } from '../../core/clock';
import { sessionNextSteps } from '../../core/council/sessionNextSteps';
import type { CouncilDeps, CouncilOutput } from '../../core/council/ports';
import { CancelledError, LanguageModelFailure } from '../../core/llm/languageModel';
import type { RunOptions, SessionRun } from '../askCouncil';
import { cliNextStepsText } from '../cliNextSteps';
import { interruptOnCtrlC } from '../interrupt';
import { NodeWorkspaceReader } from '../nodeWorkspaceReader';
import { SessionFiles } from '../sessionFiles';
import { fileDebateHistory } from '../debateHistoryFile';
import { sessionStoppedText } from '../sessionStopped';
import { askOnTerminal, questionPrompt } from '../terminalPrompts';
import type { CommandModels } from './councilParts';
import { seatCostsText } from '../seatCosts';
import { sessionJson } from './sessionJson';

/*
 * One council session run in the terminal, new (`council ask`) or resumed (`council retry|extend|revisit|more`):
 * progress on stderr, the answer on stdout, each question asked once, Ctrl+C stopping the spending, and at the end
 * the answer or what stopped it, where the session is saved and the next steps as commands.
 */

export interface TerminalSession {
  readonly project: string;
  readonly models: CommandModels;
  readonly json: boolean;
  /** Ask the questions at the terminal; false (`--yes`, or no terminal): each recommended answer is an assumption. */
  readonly interactive: boolean;
  /** Requests the session spent in earlier runs (this run's allowance comes on top). */
  readonly spentBefore?: number;
}

/** Exit code after Ctrl+C stopped a session (128 + SIGINT). */
const INTERRUPTED = 130;

/** Progress lines and questions go to stderr so stdout carries only the answer (or the JSON). */
function terminalOutput(json: boolean): CouncilOutput {
  const print = (text: string) => {
    if (!json) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  return {
    progress: message => process.stderr.write(`… ${message}\n`),
    markdown: print,
    visible: print,
    question: (question, position) => process.stderr.write(questionPrompt(question, position)),
  };
}

/** Runs `work` on the terminal and reports how the session ended; returns the exit code. */
export async function runOnTerminal(
  session: TerminalSession,
  work: (options: RunOptions) => Promise<SessionRun>,
): Promise<number> {
  const files = new SessionFiles(session.project);
  const interrupt = interruptOnCtrlC(text => process.stderr.write(`\n${text}\n`));
  const deps: CouncilDeps = {
    model: session.models.model,
    ...(session.models.roleModels ? { roleModels: session.models.roleModels } : {}),
    personas: session.models.personas,
    clock: systemClock,
    ids: { next: randomUUID },
    output: terminalOutput(session.json),
    token: interrupt.token,
    persist: stored => files.save(stored),
    debateHistory: fileDebateHistory(session.project),
    // The project's earlier decision records, as precedent (read-only, no model request).
    decisions: { reader: new NodeWorkspaceReader(session.project) },
    spending: session.models.spending(session.spentBefore),
  };
  let run: SessionRun;
  try {
    run = await work({
      deps,
      ...(session.interactive ? { ask: () => askOnTerminal(KEYS, interrupt) } : {}),
    });
  } finally {
    interrupt.dispose();
  }
  const { log, stopped } = run;
  const file = files.pathOf(log.sessionId);
  const cancelled =
    stopped instanceof CancelledError || (stopped instanceof LanguageModelFailure && stopped.kind === 'cancelled');
  const stoppedText = stopped === undefined ? undefined : sessionStoppedText(stopped, log.sessionId, file);
  if (session.json) process.stdout.write(`${JSON.stringify(sessionJson(log, file, stoppedText?.trim()), null, 2)}\n`);
  if (stoppedText) process.stderr.write(stoppedText);
  else process.stderr.write(`\n${session.models.own ? seatCostsText(log.stored.spending ?? []) : ''}Saved: ${file}\n`);
  if (!session.json)
    process.stderr.write(cliNextStepsText(sessionNextSteps(log.snapshot, { stopped: stopped !== undefined })));
  if (cancelled) return INTERRUPTED;
  return stopped === undefined && log.state === 'completed' ? 0 : 1;
}

/** The keys under a question (the question itself was printed once by the output's `question`). */
const KEYS = '  [Enter] accept the recommended answer · [s] skip · or type your answer\n> ';
