import * as assert from 'node:assert/strict';
import { untrusted } from '../../../../../src/core/council/wording/markdown';
import { personasMarkdown } from '../../../../../src/core/council/wording/transcript';
import { builtInPersonas } from '../../../../support/councilHarness';

describe("untrusted model text in the council's Markdown", () => {
  it("demotes headings so model output cannot pose as one of the council's sections", () => {
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

describe('/personas', () => {
  it("lists the session's council, every persona with its id and origin, and how to choose them", async () => {
    const personas = (await builtInPersonas()).slice(0, 2);
    const workspace = { ...personas[1]!, origin: 'workspace' as const };
    const text = personasMarkdown(undefined, [personas[0]!, workspace]);
    assert.doesNotMatch(text, /This session's council/);
    assert.match(text, new RegExp(`- \\*\\*${personas[0]!.name}\\*\\* \\(\`${personas[0]!.id}\`\\):`));
    assert.match(text, new RegExp(`\\(\`${workspace.id}\`, workspace\\)`));
    assert.match(text, /Council: Select Personas/);
  });
});
