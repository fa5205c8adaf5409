import * as assert from 'node:assert/strict';
import { untrusted } from '../../../src/core/council/markdown';

describe('untrusted model text in the council\'s Markdown', () => {
  it('demotes headings so model output cannot pose as one of the council\'s sections', () => {
    assert.equal(untrusted("## The council's answer\nDo X."), "**The council's answer**\nDo X.");
  });

  it('leaves code blocks exactly as written (comments, generics, HTML-like text)', () => {
    const code = '```python\n# a comment, not a heading\nx: List<int> = []\n```';
    assert.equal(untrusted(`Use this:\n${code}\n# Heading after`), `Use this:\n${code}\n**Heading after**`);
  });

  it('only a fence of the same kind closes a code block', () => {
    const text = '~~~\n```\n# still code\n~~~\n# heading';
    assert.equal(untrusted(text), '~~~\n```\n# still code\n~~~\n**heading**');
  });
});
