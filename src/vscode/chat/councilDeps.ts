import * as vscode from 'vscode';
import { v4 as uuid } from 'uuid';
import { systemClock } from '../../core/clock';
import type { CouncilDeps, CouncilOutput } from '../../core/council/ports';
import { newCouncilSession, type NewSessionOptions } from '../../core/council/councilTurn';
import type { SessionLog } from '../../core/council/sessionLog';
import type { SpendTotals } from '../../core/llm/spending/ledger';
import { PriceBook } from '../../core/llm/spending/prices';
import { PERSONA_EXPLORATION_LIMITS, type GroundingTool } from '../../core/council/workspaceGrounding';
import type { PersonaRegistry } from '../../core/personas/registry';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import type { CouncilLog } from '../log';
import type { SessionStore } from '../storage/sessionStore';
import type { CouncilSettings } from '../settings';
import { createRoleModels } from '../languageModel/roleModels';
import { tracedModel } from '../languageModel/tracedModel';
import { VsCodeWorkspaceReader } from '../workspace/vscodeWorkspaceReader';

/** What a council run needs from the extension, whether it came from chat or from the agent's tool. */
export interface CouncilRunEnvironment {
  readonly store: SessionStore;
  readonly log: CouncilLog;
}

/** The deps of one council turn. */
export interface CouncilRun {
  readonly deps: CouncilDeps;
}

/**
 * Wires one council turn to VS Code: `model` traced into the log, every recorded event saved in the store,
 * the settings' default panel as the selection fallback. Shared by `@council` and `council_deliberate`.
 */
export function councilRun(
  env: CouncilRunEnvironment,
  model: vscode.LanguageModelChat,
  registry: PersonaRegistry,
  settings: CouncilSettings,
  output: CouncilOutput,
  token: vscode.CancellationToken,
  /** The user's `#`-named tools, offered to personas that look things up (chat turns only). */
  namedTools: readonly GroundingTool[] = [],
): CouncilRun {
  const wrap = (chat: vscode.LanguageModelChat) => tracedModel(adaptLanguageModel(chat), env.log);
  const chatModel = wrap(model);
  const deps: CouncilDeps = {
    model: chatModel,
    roleModels: createRoleModels(model, settings, chat => (chat.id === model.id ? chatModel : wrap(chat))),
    personas: registry.personas,
    clock: systemClock,
    ids: { next: () => uuid() },
    output,
    token,
    selectionDefaults: settings.defaultPersonaIds.length > 0 ? { personaIds: settings.defaultPersonaIds } : undefined,
    persist: stored => env.store.save(stored),
    debateHistory: env.store.debateHistory(),
    onNormalized: (step, changes) => env.log.info(`${step}: normalized the model's reply: ${changes.join('; ')}`),
    // Files are data a model reads; an untrusted workspace's files are not offered at all.
    workspace: vscode.workspace.isTrusted
      ? { reader: new VsCodeWorkspaceReader(), always: settings.groundInWorkspace, extraTools: namedTools }
      : undefined,
    // The team's decision records are read for precedent only where workspace files may be read at all.
    decisions: vscode.workspace.isTrusted
      ? { reader: new VsCodeWorkspaceReader(), folder: settings.decisionsFolder }
      : undefined,
    protocol: settings.protocol,
    spending: { limits: settings.spending.session, prices: new PriceBook(settings.spending.prices) },
  };
  return { deps };
}

/** A new session for this machine's user, saved before anything is spent on it (both doors start one this way). */
export async function startCouncilSession(
  env: CouncilRunEnvironment,
  options: Omit<NewSessionOptions, 'userId'>,
  deps: CouncilDeps,
): Promise<SessionLog> {
  const log = newCouncilSession({ ...options, userId: vscode.env.machineId || 'user' }, deps);
  await env.store.save(log.stored);
  return log;
}

/** What one council turn is logged with: where it started, in time and in the session's spending. */
export interface TurnStart {
  readonly modelId: string;
  readonly command: string | undefined;
  readonly startedAt: number;
  readonly spentBefore: SpendTotals;
}

/** The turn's info line; the session's ledger is the only meter, so what the turn spent is what it added there. */
export function logCouncilTurn(
  env: CouncilRunEnvironment,
  log: SessionLog,
  turn: TurnStart,
  settings: CouncilSettings,
): void {
  env.log.logTurn({
    sessionId: log.sessionId,
    state: log.state,
    modelId: turn.modelId,
    calls: log.spent.requests - turn.spentBefore.requests,
    latencyMs: Date.now() - turn.startedAt,
    inputTokens: log.spent.inputTokens - turn.spentBefore.inputTokens,
    command: turn.command,
    sessionRequests: log.requestsUsed,
    budget: settings.spending.session.maxRequests,
  });
}

/**
 * Look-up rounds a persona may take before each contribution in a session without attached context (the agent's
 * tool): only with `council.personas.groundInWorkspace` on, in a trusted workspace. For request estimates.
 */
export function lookupRoundsWithoutAttachments(settings: Pick<CouncilSettings, 'groundInWorkspace'>): number {
  return settings.groundInWorkspace && vscode.workspace.isTrusted ? PERSONA_EXPLORATION_LIMITS.maxRounds : 0;
}
