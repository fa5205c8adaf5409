import { creditsFor, type ModelPrice } from '../src/core/llm/spending/prices';
import { creditsText } from '../src/core/llm/spending/spendText';

/** The three prices every bench reports credits at: a 0-cost model, GPT-5 mini's, Claude Sonnet 4.6's. */
export const PRICE_POINTS: readonly { readonly label: string; readonly price: ModelPrice }[] = [
  { label: '0-cost model', price: 0 },
  { label: '$0.25/$2 per M', price: { input: 0.25, output: 2 } },
  { label: '$3/$15 per M', price: { input: 3, output: 15 } },
];

/** "0 / 0.03 / 0.4": estimated credits of these tokens at each price point. */
export function creditsAtPricePoints(inputTokens: number, outputTokens: number): string {
  return PRICE_POINTS.map(p => creditsText(creditsFor(p.price, inputTokens, outputTokens))).join(' / ');
}

/** The header that names the price points, for a table row label. */
export const PRICE_POINTS_LABEL = `credits (${PRICE_POINTS.map(p => p.label).join(' / ')})`;
