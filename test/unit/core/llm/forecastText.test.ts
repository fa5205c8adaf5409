import * as assert from 'node:assert/strict';
import { forecastText } from '../../../../src/core/llm/spending/forecastText';
import { afterFirstVoteForecast } from '../../../../src/core/council/wording/progressText';

describe('forecastText (the two numbers a user decides on)', () => {
  it('says the expected figure and the bound, each with requests, tokens and credits', () => {
    const text = forecastText(
      { requests: 7, tokens: 15_000, credits: 1.2 },
      { requests: 11, tokens: 35_000, credits: 3 },
    );
    assert.match(
      text,
      /^about 7 requests and 15(\.0)?k tokens \(≈ [\d.]+ credits\); at most 11 requests and 35(\.0)?k tokens/,
    );
  });

  it('says when the price is unknown, and counts one request in the singular', () => {
    const text = forecastText(
      { requests: 1, tokens: 2_000, credits: undefined },
      { requests: 1, tokens: 3_000, credits: undefined },
    );
    assert.match(text, /about 1 request and .* \(price of this model unknown\); at most 1 request and/);
  });

  it('the re-forecast after the first vote carries both numbers', () => {
    const line = afterFirstVoteForecast(
      false,
      forecastText({ requests: 7, tokens: 14_000, credits: 1 }, { requests: 11, tokens: 30_000, credits: 2 }),
    );
    assert.match(line, /^The first drafts differ: the debate now expects about 7 requests .*; at most 11 requests/);
  });
});
