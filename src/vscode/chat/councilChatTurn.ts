import * as vscode from 'vscode';
import type { ChatIntent } from '../../core/council/chatIntent';
import type { CouncilCommand } from '../../core/council/commands';
import { runCouncilTurn } from '../../core/council/councilTurn';
import { SessionLog, SessionRuleError } from '../../core/council/sessionLog';
import type { AttachedItem } from '../../core/session/attachedItem';
import { NO_SPEND } from '../../core/llm/spending/ledger';
import { describeTurnStop } from '../../core/llm/turnStop';
import { chatOutput } from './chatOutput';
import { councilRun, logCouncilTurn, startCouncilSession } from './councilDeps';
import { councilMetadata } from './councilResult';
import type { CouncilLog } from '../log';
import { loadCouncilPersonas } from '../personas/personaSource';
import type { SessionStore } from '../storage/sessionStore';
import { pinnedPersonaIds, withPinned } from '../personas/pinnedPersonas';
import { referencedTools } from './referencedTools';
import type { CouncilSettings } from '../settings';

/** What a council turn keeps when it stops early, and the button that continues it. */
const COUNCIL_STOP = { kept: 'The session is saved.', button: 'Try again' } as const;

/** What a council turn needs from the extension. */
export interface CouncilTurnEnvironment {
  readonly context: vscode.ExtensionContext;
  readonly store: SessionStore;
  readonly log: CouncilLog;
}

/** One chat request that starts a council session or continues the thread's one. */
export interface CouncilChatTurn {
  readonly request: vscode.ChatRequest;
  readonly stream: vscode.ChatResponseStream;
  readonly token: vscode.CancellationToken;
  readonly intent: Extract<ChatIntent, { kind: 'newSession' | 'turn' }>;
  /** The thread's session (absent for a new one). */
  readonly current: SessionLog | undefined;
  readonly attached: readonly AttachedItem[];
  readonly settings: CouncilSettings;
}

/**
 * Runs one council turn for a chat request: the session's personas and models, the turn itself (saved event by
 * event), one failure path (Stop is not a failure; a failure goes to the error box and the log), and the turn log.
 */
export async function councilChatTurn(env: CouncilTurnEnvironment, turn: CouncilChatTurn): Promise<vscode.ChatResult> {
  const { request, stream, token, intent, current, attached, settings } = turn;
  const startedAt = Date.now();
  // Read before the turn: the session's ledger grows as the turn spends.
  const spentBefore = current?.spent ?? NO_SPEND;
  const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
  const output = chatOutput(stream);
  const named = referencedTools(request);
  const { deps } = councilRun(env, request.model, registry, settings, output, token, named.tools);
  for (const note of named.notes) output.visible(`⚠ ${note}\n\n`);
  let log: SessionLog;
  let command: CouncilCommand;
  if (intent.kind === 'newSession') {
    for (const problem of [...settings.problems, ...registry.problems.map(p => p.message)])
      output.visible(`⚠ ${problem}\n\n`);
    const pinned = pinnedPersonaIds(env.context).flatMap(id => registry.personas.filter(p => p.id === id));
    log = await startCouncilSession(
      env,
      {
        request: withPinned(intent.request, pinned),
        limits: settings.limits,
        skipClarification: intent.skipClarification,
        attached,
      },
      deps,
    );
    command = { kind: 'retry' };
  } else {
    if (!current) throw new Error('unreachable: a session command without a session');
    log = current;
    command = intent.command;
    if (log.attach(attached) > 0) await env.store.save(log.stored);
    // After a Stop, VS Code drops what was written once the request was cancelled: say it here instead.
    if (command.kind === 'retry')
      stream.markdown('_Continuing where this session stopped; nothing done so far is repeated._\n\n');
  }

  let failed = false;
  let noFurtherQuestions = false;
  let errorDetails: vscode.ChatErrorDetails | undefined;
  try {
    const report = await runCouncilTurn(log, command, deps);
    noFurtherQuestions = report.noFurtherQuestions;
    // The answer was shown from the vote because its own request failed: offer Try again to write it in full.
    if (report.answerPending !== undefined) failed = true;
  } catch (error) {
    if (error instanceof SessionRuleError) {
      // The user's command does not fit the session now (e.g. no open question); nothing changed.
      stream.markdown(`\n\n${error.message}`);
    } else {
      failed = true;
      const stop = describeTurnStop(error, COUNCIL_STOP, token.isCancellationRequested);
      if (stop.kind === 'cancelled') {
        stream.markdown(`\n\n${stop.message}`);
      } else {
        env.log.logError(error, `session ${log.sessionId}: ${stop.detail}`);
        errorDetails = { message: stop.message };
      }
    }
  } finally {
    logCouncilTurn(env, log, { modelId: request.model.id, command: request.command, startedAt, spentBefore }, settings);
    output.flush();
  }
  return { metadata: councilMetadata(log, failed, noFurtherQuestions), ...(errorDetails ? { errorDetails } : {}) };
}
