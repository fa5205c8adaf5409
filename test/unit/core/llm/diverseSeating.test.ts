import { strict as assert } from 'node:assert';
import { diverseRoster, diverseSeat, type SeatableModel } from '../../../../src/core/llm/diverseSeating';
import { PriceBook } from '../../../../src/core/llm/spending/prices';

const model = (family: string, vendor = 'copilot', maxInputTokens = 128_000): SeatableModel => ({
  id: `${family}-id`,
  family,
  vendor,
  name: family,
  maxInputTokens,
});

describe('diverse seating: personas on different model families, cheapest capable first', () => {
  const sonnet = model('claude-sonnet-4.6');
  const mini = model('gpt-5-mini');
  const gemini = model('gemini-3.1-pro');
  const utility = model('gpt-4o-mini');
  const local = model('llama3', 'ollama');
  const tiny = model('phi', 'ollama', 4_000);
  const prices = new PriceBook();

  it('orders families by what a request costs: free, then cheaper; none dearer than the chat model, none of unknown price', () => {
    const roster = diverseRoster([sonnet, gemini, local, mini, utility], sonnet, prices);
    assert.deepEqual(
      roster.map(m => m.family),
      ['gpt-4o-mini', 'gpt-5-mini', 'gemini-3.1-pro', 'claude-sonnet-4.6'],
    );
    // On the cheapest paid model the user picked, a dearer family never gets a seat.
    assert.deepEqual(
      diverseRoster([sonnet, gemini, utility], mini, prices).map(m => m.family),
      ['gpt-4o-mini', 'gpt-5-mini'],
    );
    // A chat model of unknown price may sit with others of unknown price.
    assert.deepEqual(
      diverseRoster([local, mini], model('mystery', 'other'), prices).map(m => m.family),
      ['gpt-5-mini', 'mystery', 'llama3'],
    );
  });

  it('seats a persona only on a model with tool calling', () => {
    const noTools = { ...model('gemini-3.1-pro'), capabilities: { supportsToolCalling: false } };
    assert.deepEqual(
      diverseRoster([noTools, mini], sonnet, prices).map(m => m.family),
      ['gpt-5-mini', 'claude-sonnet-4.6'],
    );
  });

  it('a price the user set moves a model up', () => {
    const roster = diverseRoster([sonnet, local], sonnet, new PriceBook({ 'ollama/llama3': 0 }));
    assert.deepEqual(
      roster.map(m => m.family),
      ['llama3', 'claude-sonnet-4.6'],
    );
  });

  it('keeps one model per family and leaves out windows too small for a debate', () => {
    const second = { ...mini, id: 'gpt-5-mini-2026-05-01' };
    const roster = diverseRoster([mini, second, tiny], sonnet, prices);
    assert.deepEqual(
      roster.map(m => m.id),
      ['gpt-5-mini-id', 'claude-sonnet-4.6-id'],
    );
  });

  it('seats the council in turn, so no two personas share a family until all are used', () => {
    const roster = [utility, mini, gemini];
    assert.deepEqual(
      [0, 1, 2, 3].map(seat => diverseSeat(roster, seat, sonnet).family),
      ['gpt-4o-mini', 'gpt-5-mini', 'gemini-3.1-pro', 'gpt-4o-mini'],
    );
    assert.equal(diverseSeat([], 2, sonnet), sonnet);
  });
});
