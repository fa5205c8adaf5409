import * as vscode from 'vscode';
import { v4 as uuid } from 'uuid';
import { systemClock } from '../core/clock';
import { chatIntent, type ChatIntent } from '../core/council/chatIntent';
import { newCouncilSession, runCouncilTurn } from '../core/council/councilTurn';
import type { CouncilCommand } from '../core/council/commands';
import type { CouncilDeps } from '../core/council/ports';
import { SessionLog, SessionRuleError } from '../core/council/sessionLog';
import { assumptionsMarkdown, statusMarkdown } from '../core/council/transcript';
import { describeModelFailure } from '../core/llm/failureMessages';
import { CancelledError, LanguageModelFailure } from '../core/llm/languageModel';
import { UsageTally } from '../core/llm/usage';
import type { PersonaContract } from '../core/personas/contract';
import { chatOutput } from './chatOutput';
import { councilMetadata } from './councilResult';
import { adaptLanguageModel, toModelFailure } from './languageModelAdapter';
import type { CouncilLog } from './log';
import { loadCouncilPersonas } from './personaSource';
import type { SessionStore } from './sessionStore';
import { readCouncilSettings } from './settings';
import { threadSession } from './threadSession';
import { tracedModel } from './tracedModel';
import { pinnedPersonaIds } from './pinnedPersonas';

/** Must match `contributes.chatParticipants[0].id` in package.json. */
export const PARTICIPANT_ID = 'council.council';

/** What the participant needs from the extension. */
export interface CouncilEnvironment {
  readonly context: vscode.ExtensionContext;
  readonly store: SessionStore;
  readonly log: CouncilLog;
  /** `/plan` and the "Plan this" follow-up (the deep-work pipeline), when available. */
  readonly plan?: (goal: string, session: SessionLog | undefined, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken) => Promise<vscode.ChatResult>;
}

function personaCatalog(personas: readonly PersonaContract[]): string {
  return personas.map(p => `- **${p.name}** (\`${p.id}\`${p.origin === 'workspace' ? ', workspace' : ''}): ${p.role}`).join('\n');
}

/** The explicit naming form the persona selector honours, for personas pinned with "Council: Select Personas". */
function withPinned(request: string, pinned: readonly PersonaContract[]): string {
  return pinned.length > 0 ? `with ${pinned.map(p => p.name).join(', ')}: ${request}` : request;
}

/** What to tell the user when a turn stops early; the session itself is always kept. */
function failureMessage(error: unknown, token: vscode.CancellationToken): { readonly text: string; readonly isError: boolean } {
  if (error instanceof SessionRuleError) return { text: error.message, isError: false };
  const failure = toModelFailure(error, token);
  if (failure instanceof CancelledError) {
    return { text: 'Stopped. The session is saved: press **Try again** (or send `/retry`) to continue where it stopped.', isError: false };
  }
  if (failure instanceof LanguageModelFailure && failure.kind !== 'unknown') {
    return { text: `${describeModelFailure(failure)} The session is saved: press **Try again** to continue.`, isError: true };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { text: `The council stopped: ${detail} The session is saved: press **Try again** to continue.`, isError: true };
}

/** The `@council` request handler: one chat request = one council turn. */
export function councilHandler(env: CouncilEnvironment): vscode.ChatRequestHandler {
  return async (request, chatContext, stream, token) => {
    const found = threadSession(chatContext.history, PARTICIPANT_ID, env.store);
    if (found.kind === 'unreadable') {
      env.log.logError(new Error(found.error), `restoring session ${found.sessionId}`);
    }
    const current = found.kind === 'found' ? found.log : undefined;
    const intent: ChatIntent = chatIntent(request.command, request.prompt, current?.state ?? 'none');
    const settings = readCouncilSettings();
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
        return env.plan(intent.goal, current, request, stream, token);
      case 'show': {
        if (intent.what === 'personas') {
          const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
          const council = current ? current.snapshot.context.participants.filter(p => p.type === 'persona').map(p => `**${p.name}**`).join(', ') : '';
          stream.markdown(
            `${council ? `This session's council: ${council}.\n\n` : ''}Available personas:\n\n${personaCatalog(registry.personas)}\n\n` +
              'To choose the council yourself, name them at the start of a request, e.g. `@council with Security Expert, Software Architect: should we use JWTs?`, or run **Council: Select Personas**.',
          );
          return { metadata: councilMetadata(current) };
        }
        if (!current) {
          stream.markdown('There is no council session in this chat yet. Ask `@council` a question to start one.');
          return { metadata: councilMetadata(undefined) };
        }
        stream.markdown(intent.what === 'status' ? statusMarkdown(current.snapshot) : assumptionsMarkdown(current.snapshot));
        return { metadata: councilMetadata(current) };
      }
      case 'newSession':
      case 'turn':
        break;
    }

    const started = Date.now();
    const usage = new UsageTally();
    const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
    const ids = { next: () => uuid() };
    const deps: CouncilDeps = {
      model: tracedModel(adaptLanguageModel(request.model), env.log),
      personas: registry.personas,
      clock: systemClock,
      ids,
      output: chatOutput(stream),
      token,
      usage,
      selectionDefaults: settings.defaultPersonaIds.length > 0 ? { personaIds: settings.defaultPersonaIds } : undefined,
      persist: stored => env.store.save(stored),
    };
    let log: SessionLog;
    let command: CouncilCommand;
    if (intent.kind === 'newSession') {
      for (const problem of [...settings.problems, ...registry.problems.map(p => p.message)]) stream.markdown(`⚠ ${problem}\n\n`);
      const pinned = pinnedPersonaIds(env.context).flatMap(id => registry.personas.filter(p => p.id === id));
      log = newCouncilSession(
        { request: withPinned(intent.request, pinned), userId: vscode.env.machineId || 'user', limits: settings.limits, skipClarification: intent.skipClarification },
        deps,
      );
      await env.store.save(log.stored);
      command = { kind: 'resume' };
    } else {
      if (!current) throw new Error('unreachable: a session command without a session');
      log = current;
      command = intent.command;
      // After a Stop, VS Code drops what was written once the request was cancelled: say it here instead.
      if (command.kind === 'resume') stream.markdown('_Continuing where this session stopped; nothing done so far is repeated._\n\n');
    }

    let failed = false;
    let errorDetails: vscode.ChatErrorDetails | undefined;
    try {
      await runCouncilTurn(log, command, deps);
    } catch (error) {
      failed = !(error instanceof SessionRuleError);
      const message = failureMessage(error, token);
      if (message.isError) {
        env.log.logError(error, `session ${log.sessionId}`);
        errorDetails = { message: message.text };
      } else {
        stream.markdown(`\n\n${message.text}`);
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
      });
    }
    return { metadata: councilMetadata(log, failed), ...(errorDetails ? { errorDetails } : {}) };
  };
}
