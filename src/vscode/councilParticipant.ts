import * as vscode from 'vscode';
import { chatIntent, SLASH, type ChatIntent } from '../core/council/chatIntent';
import { newCouncilSession, runCouncilTurn } from '../core/council/councilTurn';
import type { CouncilCommand } from '../core/council/commands';
import { SessionLog, SessionRuleError } from '../core/council/sessionLog';
import { assumptionsMarkdown, personasMarkdown, statusMarkdown } from '../core/council/transcript';
import { describeTurnStop } from '../core/llm/turnStop';
import { attachedContext } from './chatReferences';
import { chatOutput } from './chatOutput';
import { councilMetadata, newerSessionMetadata } from './councilResult';
import type { CouncilLog } from './log';
import type { PlanHandler } from './plan/planHandler';
import type { WorkflowHandler } from './workflow/workflowHandler';
import { loadCouncilPersonas } from './personaSource';
import type { SessionStore } from './sessionStore';
import { readCouncilSettings } from './settings';
import { storedSession, threadSession } from './threadSession';
import { pinnedPersonaIds, withPinned } from './pinnedPersonas';
import { referencedTools } from './referencedTools';
import { councilRun } from './councilDeps';

/** Must match `contributes.chatParticipants[0].id` in package.json. */
export const PARTICIPANT_ID = 'council.council';

/** What the participant needs from the extension. */
export interface CouncilEnvironment {
  readonly context: vscode.ExtensionContext;
  readonly store: SessionStore;
  readonly log: CouncilLog;
  /** `/plan` and the "Plan this" follow-up (the deep-work pipeline), when available. */
  readonly plan?: PlanHandler;
  /** `/workflow`: YAML workflows (spec 002), when available. */
  readonly workflow?: WorkflowHandler;
}

/** What a council turn keeps when it stops early, and the button that continues it. */
const COUNCIL_STOP = { kept: 'The session is saved.', button: 'Try again' } as const;

/** The `@council` request handler: one chat request = one council turn. */
export function councilHandler(env: CouncilEnvironment): vscode.ChatRequestHandler {
  return async (request, chatContext, stream, token) => {
    const found = threadSession(chatContext.history, PARTICIPANT_ID, env.store);
    if (found.kind === 'unreadable') {
      env.log.logError(new Error(found.error), `restoring session ${found.sessionId}`);
    }
    if (found.kind === 'newer' && request.command !== SLASH.newSession) {
      // Saved by a newer Council: never continue or overwrite it; the next turn reports it again.
      return { errorDetails: { message: found.error.message }, metadata: newerSessionMetadata(found.sessionId) };
    }
    const current = found.kind === 'found' ? found.log : undefined;
    const intent: ChatIntent = chatIntent(request.command, request.prompt, current?.state ?? 'none');
    const settings = readCouncilSettings();
    // What the user attached (and earlier turns of this session did): read once, bounded, cited in the response.
    const attached =
      intent.kind === 'plan' || intent.kind === 'workflow' || intent.kind === 'newSession' || intent.kind === 'turn'
        ? await attachedContext(request, chatContext.history, PARTICIPANT_ID, intent.kind === 'newSession' ? undefined : current, stream, token)
        : [];
    switch (intent.kind) {
      case 'explain':
        stream.markdown(found.kind === 'unreadable' ? `This chat's council session could not be restored (${found.error}). ${intent.message}` : intent.message);
        return { metadata: councilMetadata(current) };
      case 'reset':
        stream.markdown('Starting fresh. What should the council discuss?');
        return { metadata: councilMetadata(undefined) };
      case 'plan':
        if (!env.plan) {
          stream.markdown('Planning is not available in this build.');
          return { metadata: councilMetadata(current) };
        }
        return env.plan(intent.goal, current, request, stream, token, [...(current?.attached ?? []), ...attached]);
      case 'workflow':
        if (!env.workflow) {
          stream.markdown('Workflows are not available in this build.');
          return { metadata: councilMetadata(current) };
        }
        return env.workflow(intent.text, request, stream, token, [...(current?.attached ?? []), ...attached]);
      case 'show': {
        if (intent.what === 'personas') {
          const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
          stream.markdown(personasMarkdown(current?.snapshot, registry.personas));
          return { metadata: councilMetadata(current) };
        }
        if (!current) {
          stream.markdown('There is no council session in this chat yet. Ask `@council` a question to start one.');
          return { metadata: councilMetadata(undefined) };
        }
        stream.markdown(
          intent.what === 'status'
            ? statusMarkdown(current.snapshot, { used: current.requestsUsed, limit: settings.maxRequests })
            : assumptionsMarkdown(current.snapshot),
        );
        return { metadata: councilMetadata(current) };
      }
      case 'open': {
        // The response's metadata names the opened session, so the thread's next turns continue it.
        const opened = storedSession(env.store, intent.sessionId);
        if (opened.kind === 'newer') return { errorDetails: { message: opened.error.message }, metadata: councilMetadata(current) };
        if (opened.kind !== 'found') {
          stream.markdown(`This session cannot be opened: ${opened.kind === 'unreadable' ? opened.error : 'it was not found.'}`);
          return { metadata: councilMetadata(current) };
        }
        const snapshot = opened.log.snapshot;
        stream.markdown(`Opened session \`${opened.log.sessionId}\` in this chat; what you ask \`@council\` here next continues it.\n\n${statusMarkdown(snapshot, { used: opened.log.requestsUsed, limit: settings.maxRequests })}`);
        if (snapshot.context.finalAnswer) stream.markdown(`\n\n${snapshot.context.finalAnswer}\n`);
        return { metadata: councilMetadata(opened.log) };
      }
      case 'newSession':
      case 'turn':
        break;
    }

    const started = Date.now();
    const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
    const output = chatOutput(stream);
    const { deps, usage } = councilRun(env, request.model, registry, settings, output, token, referencedTools(request));
    let log: SessionLog;
    let command: CouncilCommand;
    if (intent.kind === 'newSession') {
      for (const problem of [...settings.problems, ...registry.problems.map(p => p.message)]) output.visible(`⚠ ${problem}\n\n`);
      const pinned = pinnedPersonaIds(env.context).flatMap(id => registry.personas.filter(p => p.id === id));
      log = newCouncilSession(
        { request: withPinned(intent.request, pinned), userId: vscode.env.machineId || 'user', limits: settings.limits, skipClarification: intent.skipClarification, attached },
        deps,
      );
      await env.store.save(log.stored);
      command = { kind: 'resume' };
    } else {
      if (!current) throw new Error('unreachable: a session command without a session');
      log = current;
      command = intent.command;
      if (log.attach(attached) > 0) await env.store.save(log.stored);
      // After a Stop, VS Code drops what was written once the request was cancelled: say it here instead.
      if (command.kind === 'resume') stream.markdown('_Continuing where this session stopped; nothing done so far is repeated._\n\n');
    }

    let failed = false;
    let noFurtherQuestions = false;
    let errorDetails: vscode.ChatErrorDetails | undefined;
    try {
      ({ noFurtherQuestions } = await runCouncilTurn(log, command, deps));
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
      env.log.logTurn({
        sessionId: log.sessionId,
        state: log.state,
        modelId: request.model.id,
        calls: usage.calls,
        latencyMs: Date.now() - started,
        promptTokens: usage.promptTokens,
        command: request.command,
        sessionRequests: log.requestsUsed,
        budget: settings.maxRequests,
      });
      output.flush();
    }
    return { metadata: councilMetadata(log, failed, noFurtherQuestions), ...(errorDetails ? { errorDetails } : {}) };
  };
}
