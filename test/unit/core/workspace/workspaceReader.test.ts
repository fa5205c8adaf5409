import { strict as assert } from 'node:assert';
import { linesOf } from '../../../../src/core/workspace/workspaceReader';

describe('linesOf: the range every workspace reader answers', () => {
  const text = 'one\ntwo\nthree\nfour';

  it('returns the lines asked for, 1-based and inclusive', () => {
    assert.deepEqual(linesOf('a.ts', text, 2, 3), {
      path: 'a.ts',
      startLine: 2,
      endLine: 3,
      totalLines: 4,
      text: 'two\nthree',
    });
  });

  it('clamps a range outside the file, and an end before the start, to the file', () => {
    assert.deepEqual(linesOf('a.ts', text, 0, 99), { path: 'a.ts', startLine: 1, endLine: 4, totalLines: 4, text });
    assert.equal(linesOf('a.ts', text, 9, 12).text, 'four');
    assert.equal(linesOf('a.ts', text, 3, 1).text, 'three');
  });
});
