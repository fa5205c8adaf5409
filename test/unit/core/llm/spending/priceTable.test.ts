import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_COPILOT_PRICES, DEFAULT_PRICES_TAKEN_ON } from '../../../../../src/core/llm/spending/prices';

/** The README's price table is what users read: it must say what Council charges with, and when it was taken. */
describe('the README price table', () => {
  const readme = readFileSync('README.md', 'utf8');
  const table = /<!-- price-table[^>]*-->([\s\S]*?)<!-- \/price-table -->/.exec(readme)?.[1] ?? '';

  it('lists every default price, and nothing else', () => {
    const rows = [...table.matchAll(/^\| `([^`]+)` \| ([\d.]+) \| ([\d.]+) \|$/gm)].map(([, model, input, output]) => [
      model,
      Number(input) === 0 && Number(output) === 0 ? 0 : { input: Number(input), output: Number(output) },
    ]);
    assert.ok(rows.length > 0, 'the README has no price table between its markers');
    assert.deepEqual(Object.fromEntries(rows), DEFAULT_COPILOT_PRICES);
  });

  it('gives the date the prices were taken', () => {
    assert.ok(readme.includes(`taken on **${DEFAULT_PRICES_TAKEN_ON}**`));
  });
});
