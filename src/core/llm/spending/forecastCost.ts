import { sentenceStart } from './limitAdvice';
import { creditsFor, type ModelPrice } from './prices';
import { costText, leftText, tokensText } from './spendText';

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

/** The smallest piece of work that may start (a `/plan` stage), with what it makes at least. */
export interface SmallestWork {
  /** "the discovery stage". */
  readonly what: string;
  readonly fewestRequests: number;
  /** What it will probably make, and the tokens each probably takes: said beside the refusal. */
  readonly expected?: { readonly requests: number; readonly each: TokensPerRequest };
}

/**
 * The sentence that refuses `work` before anything is spent on it, when even its fewest requests of about `each`
 * tokens at `price` cost more credits than the limit leaves (the check errs on the side of starting: the governor
 * still stops the work at the limit); undefined when it fits, or no credit limit or price applies. It says what the
 * work probably costs too, when `work` knows. `raise` says how to raise the limit (a clause, or undefined: no way
 * here); `goOn` what to do after.
 */
export function workDoesNotFit(
  work: SmallestWork,
  each: TokensPerRequest,
  price: ModelPrice | undefined,
  limit: {
    readonly maxCredits?: number;
    readonly spentCredits: number;
    readonly raise: string | undefined;
    readonly goOn: string;
  },
): string | undefined {
  if (price === undefined || price === 0 || limit.maxCredits === undefined) return undefined;
  const need = creditsFor(price, work.fewestRequests * each.input, work.fewestRequests * each.output);
  const left = Math.max(0, limit.maxCredits - limit.spentCredits);
  if (need <= left) return undefined;
  const spent = limit.spentCredits > 0 ? `, ${leftText(left)}` : '';
  const { expected } = work;
  const probably = expected
    ? `; it probably costs about ${costText(creditsFor(price, expected.requests * expected.each.input, expected.requests * expected.each.output))}, for about ${expected.requests} request${expected.requests === 1 ? '' : 's'} of ≈${tokensText(expected.each.input + expected.each.output)} tokens`
    : '';
  return `${work.what.charAt(0).toUpperCase()}${work.what.slice(1)} needs about ${costText(need)} at least (${work.fewestRequests} request${work.fewestRequests === 1 ? '' : 's'} of ≈${tokensText(each.input + each.output)} tokens at this model's price${probably}); this run's limit is ${costText(limit.maxCredits)}${spent}. Nothing was spent on it. ${sentenceStart(limit.raise ?? 'raise the limit')} or pick a cheaper model, then ${limit.goOn}.`;
}
