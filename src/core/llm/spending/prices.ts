/*
 * What a token costs, in Copilot's AI credits (1 credit = $0.01). No stable VS Code API tells an extension a
 * model's price, so Council prices requests with this table: defaults from GitHub's published per-token
 * prices, which the user can see (README) and override or extend (`council.pricing.models`).
 */

/** US dollars per million tokens. */
export interface TokenPrice {
  readonly input: number;
  readonly output: number;
}

/** A model's price: per-token, or free (`0`: utility and included models, a local model). */
export type ModelPrice = TokenPrice | 0;

/** When the default prices were taken from GitHub's Copilot billing pages. */
export const DEFAULT_PRICES_TAKEN_ON = '2026-06-01';

/**
 * Copilot models' prices (vendor `copilot` only), by model family or id. Utility models (GPT-4o mini, GPT-4o,
 * GPT-4.1, GPT-5.4 nano) are documented as consuming no tokens for usage-based billing.
 */
export const DEFAULT_COPILOT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gemini-3.1-pro': { input: 2, output: 12 },
  'claude-sonnet-4.6': { input: 3, output: 15 },
  'claude-opus-4.7': { input: 5, output: 25 },
  'gpt-5.5': { input: 5, output: 30 },
  'gpt-4.1': 0,
  'gpt-4o': 0,
  'gpt-4o-mini': 0,
  'gpt-5.4-nano': 0,
};

/** The fields of a model a price is looked up by. */
export interface PricedModel {
  readonly id: string;
  readonly family: string;
  readonly vendor: string;
}

/** A price as the user wrote it in `council.pricing.models`, checked. */
export function parseModelPrice(value: unknown): ModelPrice | undefined {
  if (value === 0) return 0;
  if (typeof value !== 'object' || value === null) return undefined;
  const { input, output } = value as { input?: unknown; output?: unknown };
  const valid = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  return valid(input) && valid(output) ? { input, output } : undefined;
}

/** A key matches a name exactly or as a dated snapshot of it (`gpt-5-mini` matches `gpt-5-mini-2026-05-01`). */
function matches(key: string, name: string): boolean {
  const k = key.toLowerCase();
  const n = name.toLowerCase();
  return n === k || (n.startsWith(`${k}-`) && /^\d/.test(n.slice(k.length + 1)));
}

function lookUp(table: Readonly<Record<string, ModelPrice>>, model: PricedModel): ModelPrice | undefined {
  const names = [`${model.vendor}/${model.family}`, `${model.vendor}/${model.id}`, model.id, model.family];
  for (const name of names) {
    for (const [key, price] of Object.entries(table)) if (matches(key, name)) return price;
  }
  return undefined;
}

/** Prices models: the user's entries first, then the Copilot defaults; undefined: price unknown (tokens only). */
export class PriceBook {
  constructor(private readonly overrides: Readonly<Record<string, ModelPrice>> = {}) {}

  priceOf(model: PricedModel): ModelPrice | undefined {
    const own = lookUp(this.overrides, model);
    if (own !== undefined) return own;
    return model.vendor.toLowerCase() === 'copilot' ? lookUp(DEFAULT_COPILOT_PRICES, model) : undefined;
  }
}

/** Credits for `input` and `output` tokens at `price` (1 credit = $0.01, prices per million tokens). */
export function creditsFor(price: ModelPrice, input: number, output: number): number {
  if (price === 0) return 0;
  return (input * price.input + output * price.output) / 10_000;
}
