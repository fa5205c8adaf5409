import * as vscode from 'vscode';
import { debateAhead, type DebateForecastFigures } from '../../core/council/debateForecast';
import type { SessionLog } from '../../core/council/sessionLog';
import { PERSONA_EXPLORATION_LIMITS } from '../../core/council/workspaceGrounding';
import { creditsFor, PriceBook } from '../../core/llm/spending/prices';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import type { SessionStore } from '../storage/sessionStore';
import type { CouncilSettings } from '../settings';
import { lookupRoundsWithoutAttachments } from './councilDeps';

/**
 * The forecast of the debate a stored session still has ahead on `chat` (core's `debateAhead`), with this
 * workspace's settings, prices and finished debates: for `/status` and the agent's tools, outside a turn.
 * `cycles`: the cycles a continuation may run (default: what the session's limit leaves).
 */
export async function debateAheadOf(
  log: SessionLog,
  chat: vscode.LanguageModelChat,
  settings: CouncilSettings,
  store: Pick<SessionStore, 'debateHistory'>,
  cycles?: number,
): Promise<DebateForecastFigures | undefined> {
  const model = adaptLanguageModel(chat);
  const price = new PriceBook(settings.spending.prices).priceOf(model);
  const attached = log.attached.map(a => a.content ?? '');
  const lookups =
    log.attached.length > 0 && vscode.workspace.isTrusted
      ? PERSONA_EXPLORATION_LIMITS.maxRounds
      : lookupRoundsWithoutAttachments(settings);
  return debateAhead(log, {
    protocol: settings.protocol,
    limits: settings.spending.session,
    seatCost: 1 + lookups,
    contextTokens: await contextTokens(model, [log.snapshot.context.requestText, ...attached].join('\n')),
    history: store.debateHistory().read(),
    quote: (input, output) => (price === undefined ? undefined : creditsFor(price, input, output)),
    ...(cycles !== undefined ? { cycles } : {}),
  });
}

/** Tokens of `text` on `model`; characters / 4 when its tokenizer fails (a forecast must not stop `/status`). */
async function contextTokens(model: { countTokens(text: string): Promise<number> }, text: string): Promise<number> {
  try {
    return await model.countTokens(text);
  } catch {
    return Math.ceil(text.length / 4);
  }
}
