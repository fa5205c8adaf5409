import * as assert from 'node:assert/strict';
import { cycleSummary } from '../../../../../src/core/council/wording/markdown';
import type { DebateCycleRecord } from '../../../../../src/core/council/prompts/promptData';

const contribution = (persona: string, position: string, changedPosition = false) => ({
  persona,
  position,
  argument: 'The full argument stays in the folded steps.',
  keyPoints: ['A fact.'],
  changedPosition,
  agreesWith: [],
  concerns: [],
});

describe('the compact per-cycle summary shown outside the folded steps', () => {
  const record: DebateCycleRecord = {
    cycle: 2,
    contributions: [contribution('Alice', 'Use Redis.'), contribution('Bob', 'Use Postgres.\n# not a heading', true)],
  };

  it('says who holds which position, who changed, and what is still contested, without the arguments', () => {
    const text = cycleSummary(record, ['Redis or Postgres.'], false);
    assert.match(text, /\*\*Cycle 2:\*\* Changed position: Bob\. Still contested: Redis or Postgres\./);
    assert.match(
      text,
      /- \*\*Alice:\*\* Use Redis\.\n- \*\*Bob:\*\* Use Postgres\. \*\*not a heading\*\* _\(changed position\)_/,
    );
    assert.doesNotMatch(text, /full argument/);
  });

  it('says when the council converged, and shortens a long position to one line', () => {
    const long = cycleSummary({ cycle: 1, contributions: [contribution('Alice', 'x'.repeat(400))] }, [], true);
    assert.match(long, /\*\*Cycle 1:\*\* Converged\./);
    assert.match(long, /x{159}…/);
    assert.doesNotMatch(long, /x{161}/);
  });
});
