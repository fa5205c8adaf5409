import * as assert from 'node:assert/strict';
import { finalAnswerMarkdown, untrusted } from '../../../src/core/council/markdown';
import type { FinalSynthesis } from '../../../src/core/council/replies';
import { ARCHITECT, DEVELOPER, ev, run } from '../session/fixtures';

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

describe('the final answer names only the council', () => {
  const snapshot = run([ev.select([ARCHITECT, DEVELOPER])]);
  const synthesis: FinalSynthesis = {
    recommendation: 'Use a write-through cache.',
    personaConclusions: [
      { persona: 'Senior Developer', conclusion: 'Cache in Redis.' },
      { persona: 'Chief Wizard', conclusion: 'Cast a spell.' },
      { persona: 'software architect', conclusion: 'Keep it write-through.' },
    ],
    disagreements: [
      { topic: 'TTL', positions: [{ persona: 'Software Architect', position: '5 min' }, { persona: 'Senior Developer', position: '1 h' }] },
      { topic: 'Magic', positions: [{ persona: 'Chief Wizard', position: 'Yes' }, { persona: 'Senior Developer', position: 'No' }] },
    ],
    nextSteps: ['Prototype it.'],
  };

  it('"Where each persona landed" lists council personas in council order, with their own names, and nobody else', () => {
    const answer = finalAnswerMarkdown(snapshot, synthesis);
    const landed = answer.slice(answer.indexOf('### Where each persona landed'), answer.indexOf('### Disagreements left open'));
    assert.ok(landed.indexOf('**Software Architect:** Keep it write-through.') < landed.indexOf('**Senior Developer:** Cache in Redis.'));
    assert.ok(landed.includes('**Software Architect:**'));
    assert.doesNotMatch(answer, /Chief Wizard|Cast a spell/);
  });

  it('drops a disagreement that is left with fewer than two council personas', () => {
    const answer = finalAnswerMarkdown(snapshot, synthesis);
    assert.match(answer, /\*\*TTL\*\*/);
    assert.doesNotMatch(answer, /\*\*Magic\*\*/);
  });
});
