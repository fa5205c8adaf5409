import nodeAssert from 'node:assert/strict';
import * as assert from '../../integration/assert';

// The integration suites' assert runs where node:assert does not; a check here that never fails
// would make every integration test unable to fail, so each must reject what it should.
describe('integration assert (browser-safe)', () => {
  it('deepEqual accepts equal structures and rejects any difference', () => {
    assert.deepEqual({ a: [1, { b: 'x' }], c: undefined }, { a: [1, { b: 'x' }], c: undefined });
    for (const [actual, expected] of [
      [{ a: 1 }, { a: 2 }],
      [{ a: 1 }, { a: 1, b: 2 }],
      [
        [1, 2],
        [1, 2, 3],
      ],
      [[1], { 0: 1 }],
      [{ a: undefined }, {}],
      [null, {}],
    ] as const) {
      nodeAssert.throws(() => assert.deepEqual(actual, expected), assert.AssertionError);
    }
  });

  it('equal uses Object.is and reports actual and expected for the diff', () => {
    assert.equal(Number.NaN, Number.NaN);
    nodeAssert.throws(
      () => assert.equal(1, '1'),
      (error: unknown) => error instanceof assert.AssertionError && error.actual === 1 && error.expected === '1',
    );
  });

  it('ok, match and doesNotMatch reject what they should', () => {
    nodeAssert.throws(() => assert.ok(0), assert.AssertionError);
    nodeAssert.throws(() => assert.match('abc', /z/), assert.AssertionError);
    nodeAssert.throws(() => assert.doesNotMatch('abc', /b/), assert.AssertionError);
  });

  it('rejects returns the rejection, and fails on resolution or the wrong error', async () => {
    const error = await assert.rejects(Promise.reject(new RangeError('bad')), RangeError);
    nodeAssert.ok(error instanceof RangeError);
    await nodeAssert.rejects(assert.rejects(Promise.resolve(1)), assert.AssertionError);
    await nodeAssert.rejects(assert.rejects(Promise.reject(new Error('x')), RangeError), assert.AssertionError);
    await nodeAssert.rejects(
      assert.rejects(() => Promise.reject(new Error('x')), /y/),
      assert.AssertionError,
    );
  });
});
