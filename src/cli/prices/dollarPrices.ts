import { PriceBook, type ModelPrice, type PricedModel } from '../../core/llm/spending/prices';

/*
 * What the `council` command's models cost, in US dollars per million tokens: the providers' list prices, the
 * config's `prices` over them. The governor counts in cents (its "credits": 1 credit = $0.01, the same unit
 * Copilot's AI credits use), so its limits, forecasts and ledger read in dollars once the unit is set to dollars.
 */

/** When these list prices were recorded; providers change them, so the config's `prices` wins over this table. */
export const DOLLAR_PRICES_TAKEN_ON = '2026-06-01';

/** List prices by model id (a dated snapshot such as `gpt-5-mini-2026-05-01` matches its id). */
export const DEFAULT_DOLLAR_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  'gpt-5.5': { input: 5, output: 30 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  // Anthropic (the API's ids use hyphens; Copilot's use dots)
  'claude-opus-4-7': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  // Google
  'gemini-3.1-pro': { input: 2, output: 12 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
};

/** The vendor of a model served on this machine (an openai-compatible baseUrl on localhost): it costs nothing. */
export const LOCAL_VENDOR = 'local';

/** Dollar prices: the config's entries, then the list prices; a local model is free unless the config prices it. */
export class DollarPriceBook extends PriceBook {
  private readonly list = new PriceBook(DEFAULT_DOLLAR_PRICES);

  override priceOf(model: PricedModel): ModelPrice | undefined {
    const own = super.priceOf(model);
    if (own !== undefined) return own;
    if (model.vendor === LOCAL_VENDOR) return 0;
    return this.list.priceOf(model);
  }
}
