import * as assert from 'node:assert/strict';
import { AnswerStream, NOT_ON_COUNCIL } from '../../../../src/core/council/answerStream';
import { untrusted } from '../../../../src/core/council/wording/markdown';

/** Feeds `text` to a stream in pieces of `size` characters; returns what was shown, and after how many pieces the first text appeared. */
function streamed(text: string, size: number, forbidden: readonly string[]) {
  const stream = new AnswerStream(forbidden);
  let shown = '';
  let firstAt: number | undefined;
  let pieces = 0;
  for (let i = 0; i < text.length; i += size) {
    pieces += 1;
    const out = stream.push(text.slice(i, i + size));
    if (out !== '' && firstAt === undefined) firstAt = pieces;
    shown += out;
  }
  shown += stream.end();
  return { shown, firstAt, pieces };
}

const ANSWER = [
  'Adopt server-side sessions. The Security Expert would object, and so would the product manager',
  '## A heading the model wrote',
  '```ts',
  '# not a heading: code',
  'const expert = "Security Expert";',
  '```',
  'Next: ask the Security Experts team; the DevOps Engineer agrees.',
].join('\n');

describe('the streamed final answer', () => {
  const forbidden = ['Security Expert', 'Product Manager'];

  it('shows the same text whatever the chunking, with headings demoted (not in code) and absent personas replaced', () => {
    const whole = streamed(ANSWER, ANSWER.length, forbidden).shown;
    for (const size of [1, 2, 3, 5, 7, 16, 64])
      assert.equal(streamed(ANSWER, size, forbidden).shown, whole, `chunks of ${size}`);
    assert.match(whole, /\*\*A heading the model wrote\*\*/);
    assert.equal(untrusted('## A heading the model wrote'), '**A heading the model wrote**');
    assert.match(whole, /# not a heading: code/);
    assert.match(
      whole,
      /const expert = "\[not on this council\]";/,
      'in code too, an absent persona is not named; the rest of the code is kept',
    );
    assert.match(whole, new RegExp(`The ${NOT_ON_COUNCIL.replace(/[[\]]/g, '\\$&')} would object`));
    assert.match(whole, /so would the \[not on this council\]/, 'matched in any case');
    assert.match(whole, /Security Experts team/, 'only whole names');
    assert.match(whole, /the DevOps Engineer agrees/, 'a council member is named as written');
  });

  it('never lets an absent persona through, even split across chunks', () => {
    const text = 'First the Security Expert spoke, then the Product Manager.';
    for (let size = 1; size <= text.length; size++) {
      const { shown } = streamed(text, size, forbidden);
      assert.doesNotMatch(shown, /Security Expert|Product Manager/i, `chunks of ${size}`);
    }
  });

  it('shows the first words while the answer is still being written', () => {
    const { firstAt, pieces } = streamed(`Adopt sessions. ${'More reasoning. '.repeat(20)}`, 4, forbidden);
    assert.equal(firstAt, 1, 'the first chunk of plain prose is shown at once');
    assert.ok(pieces > 10);
  });

  it('holds a line start that may become a heading only until it is decided', () => {
    const stream = new AnswerStream([]);
    assert.equal(stream.push('#'), '');
    assert.equal(stream.push('# Title'), '');
    assert.equal(stream.push('\nText'), '**Title**\nText');
    assert.equal(stream.end(), '');
  });
});
