import { forecastText, type ForecastFigure } from '../../llm/spending/forecastText';

/*
 * The sentence a spending limit's refusal adds during a council turn: the limit decides on the bound (for safety),
 * and the user also reads what the debate was expected to cost, in the words every forecast uses.
 */

/** Before the debate (or its opening): what the debate still to come was forecast at. */
export function debateLimitNote(expected: ForecastFigure, bound: ForecastFigure): string {
  return `The debate's forecast: ${forecastText(expected, bound, 'more request')}.`;
}

/** After the first vote: the re-forecast, counted from the debate's first drafts. */
export function reforecastLimitNote(expected: ForecastFigure, bound: ForecastFigure): string {
  return `The debate's forecast after the first vote: ${forecastText(expected, bound)} in all.`;
}
