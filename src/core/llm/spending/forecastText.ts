import { amountText, costsInDollars, tokensText } from './spendText';

/** One side of a forecast: requests, tokens (in and out), and their credits (undefined: price unknown). */
export interface ForecastFigure {
  readonly requests: number;
  readonly tokens: number;
  readonly credits: number | undefined;
}

function figureText(f: ForecastFigure, noun: string): string {
  const price =
    f.credits === undefined
      ? ' (price of this model unknown)'
      : ` (≈ ${amountText(f.credits)}${costsInDollars() ? '' : ' credits'})`;
  return `${f.requests} ${noun}${f.requests === 1 ? '' : 's'} and ${tokensText(f.tokens)} tokens${price}`;
}

/**
 * The two numbers a user decides on, worded one way everywhere: "about N requests and T tokens (≈ C credits);
 * at most M requests and U tokens (≈ D credits)". `noun` names what is counted ("request", "more request").
 */
export function forecastText(expected: ForecastFigure, bound: ForecastFigure, noun = 'request'): string {
  return `about ${figureText(expected, noun)}; at most ${figureText(bound, noun)}`;
}
