import { debateAhead, type DebateForecastFigures } from '../../core/council/debateForecast';
import type { DebateHistoryStore } from '../../core/council/ports';
import type { SessionLog } from '../../core/council/sessionLog';
import type { LanguageModel } from '../../core/llm/languageModel';
import type { SpendingLimits } from '../../core/llm/spending/governor';
import { creditsFor, type PriceBook } from '../../core/llm/spending/prices';

/**
 * The forecast of the debate a session still has ahead on `model`, for `council_open`'s result over MCP: what the
 * VS Code tool tells its agent (core's `debateAhead`, with the project's finished debates), the command's economy
 * protocol and limits. Undefined when no debate lies ahead; a tokenizer that fails counts characters / 4.
 */
export async function mcpDebateAhead(
  log: SessionLog,
  model: LanguageModel,
  spending: { readonly limits: SpendingLimits; readonly prices: PriceBook },
  history: DebateHistoryStore,
): Promise<DebateForecastFigures | undefined> {
  const text = [log.snapshot.context.requestText, ...log.attached.map(a => a.content ?? '')].join('\n');
  const contextTokens = await model.countTokens(text).catch(() => Math.ceil(text.length / 4));
  const price = spending.prices.priceOf(model);
  return debateAhead(log, {
    protocol: 'economy',
    limits: spending.limits,
    seatCost: 1,
    contextTokens,
    history: history.read(),
    quote: (input, output) => (price === undefined ? undefined : creditsFor(price, input, output)),
  });
}
