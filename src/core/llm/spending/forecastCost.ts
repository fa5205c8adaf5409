import { creditsFor, type ModelPrice } from './prices';
import { creditsText, tokensText } from './spendText';

/** Tokens one request is expected to take (input with tool schemas, output). */
export interface TokensPerRequest {
  readonly input: number;
  readonly output: number;
}

/** Fewest and most requests a piece of work will make. */
export interface RequestSpan {
  readonly fewest: number;
  readonly most: number;
}

const span = (fewest: string, most: string): string => (fewest === most ? most : `${fewest}–${most}`);

/**
 * What `requests` of about `each` tokens cost at `price`, in the words every forecast uses:
 * "≈12k–48k tokens, about 0.1–0.5 AI credits"; a free model and an unknown price say so.
 */
export function forecastCost(requests: RequestSpan, each: TokensPerRequest, price: ModelPrice | undefined): string {
  const tokens = (n: number) => tokensText(n * (each.input + each.output));
  const tokenPart = `≈${span(tokens(requests.fewest), tokens(requests.most))} tokens`;
  if (price === undefined) return `${tokenPart} (price of this model unknown)`;
  if (price === 0) return `${tokenPart}, no AI credits (this model costs none)`;
  const credits = (n: number) => creditsText(creditsFor(price, n * each.input, n * each.output));
  return `${tokenPart}, about ${span(credits(requests.fewest), credits(requests.most))} AI credits`;
}
