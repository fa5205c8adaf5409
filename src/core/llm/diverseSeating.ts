import type { ModelDescriptor } from './modelSelector';
import { creditsFor, type PriceBook } from './spending/prices';

/*
 * Debate research finds diverse models help more than copies of one (ReConcile; Zhang et al. 2025): with the
 * user's consent (`council.models.diverse`), the council's seats go to different model families, cheapest capable
 * first, so diversity does not quietly buy the most expensive models.
 */

/** What is needed of a model to seat a persona on it. */
export interface SeatableModel extends ModelDescriptor {
  readonly maxInputTokens: number;
  /** As VS Code describes a chat model: a persona's reply is a tool call, so a seat needs tool calling. */
  readonly capabilities?: { readonly supportsToolCalling?: boolean };
}

/** A context window below this cannot hold a debate prompt with attached context. */
export const MIN_DEBATE_CONTEXT_TOKENS = 16_000;

/** Tokens of a typical persona request, to rank families by what one costs (input dominates). */
const TYPICAL_INPUT = 3_000;
const TYPICAL_OUTPUT = 600;

/**
 * One model per family, capable ones only (a context window for a debate, tool calling), the chat's own model kept
 * for its family, none dearer per request than the chat's model (the user picked that price; a model of unknown price
 * only when the chat's is unknown too), ordered by what a typical request costs: free first, then by credits.
 */
export function diverseRoster<M extends SeatableModel>(available: readonly M[], chat: M, prices: PriceBook): M[] {
  const cost = (model: M): number => typicalRequestCredits(model, prices) ?? Infinity;
  const ceiling = cost(chat);
  const byFamily = new Map<string, M>();
  for (const model of [chat, ...available]) {
    const family = `${model.vendor}/${model.family}`.toLowerCase();
    if (model !== chat) {
      if (model.maxInputTokens < MIN_DEBATE_CONTEXT_TOKENS) continue;
      if (model.capabilities?.supportsToolCalling === false) continue;
      if (cost(model) > ceiling) continue;
    }
    if (!byFamily.has(family)) byFamily.set(family, model);
  }
  return [...byFamily.values()]
    .map((model, order) => ({ model, order, cost: cost(model) }))
    .sort((a, b) => a.cost - b.cost || a.order - b.order)
    .map(({ model }) => model);
}

/** What a typical persona request costs on `model`, in credits; undefined when its price is unknown. */
export function typicalRequestCredits(model: ModelDescriptor, prices: PriceBook): number | undefined {
  const price = prices.priceOf(model);
  return price === undefined ? undefined : creditsFor(price, TYPICAL_INPUT, TYPICAL_OUTPUT);
}

/** The model of the council's `seat`-th persona: families in turn, so no two share one until all are used. */
export function diverseSeat<M>(roster: readonly M[], seat: number, fallback: M): M {
  return roster.length === 0 ? fallback : (roster[seat % roster.length] ?? fallback);
}
