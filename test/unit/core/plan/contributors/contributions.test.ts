import { strict as assert } from 'node:assert';
import { type Contribution } from '../../../../../src/core/plan/contributors/promptContributor';
import { delimitUntrusted } from '../../../../../src/core/llm/dataFence';
import { Contributions, CONTRIBUTIONS_PREAMBLE } from '../../../../../src/core/plan/prompts/contributions';
import { renderMessages } from '../../../../../src/core/llm/prompting/render';
import { countingModel } from './support';

/** A contribution of about `tokens` tokens whose start and end are recognisable. */
function contribution(name: string, priority: number, tokens: number): Contribution {
  const body = `BEGIN-${name} ${'lorem '.repeat(Math.ceil((tokens * 4) / 6))}END-${name}`;
  return { name, priority, text: delimitUntrusted(name, body) };
}

// Assembly order (ascending priority): the lowest-priority contribution comes first in the prompt.
const contributions = [contribution('low', 100, 60), contribution('mid', 500, 60), contribution('high', 900, 60)];

async function rendered(maxInputTokens: number): Promise<string> {
  const { messages } = await renderMessages(Contributions, { contributions }, countingModel(maxInputTokens));
  assert.equal(messages.length, 1);
  return String(messages[0]!.content);
}

/** Names of the contributions present, asserting each is whole or absent. */
function present(text: string): string[] {
  return contributions
    .filter(c => {
      const whole = text.includes(c.text);
      const partial = text.includes(`BEGIN-${c.name}`) || text.includes(`END-${c.name}`);
      assert.equal(partial, whole, `${c.name} was cut mid-text`);
      return whole;
    })
    .map(c => c.name);
}

describe('<Contributions>', () => {
  it('renders every contribution in order after the preamble when the budget allows', async () => {
    const text = await rendered(10_000);
    assert.ok(text.startsWith(CONTRIBUTIONS_PREAMBLE));
    assert.deepEqual(present(text), ['low', 'mid', 'high']);
    assert.ok(
      text.indexOf('BEGIN-low') < text.indexOf('BEGIN-mid') && text.indexOf('BEGIN-mid') < text.indexOf('BEGIN-high'),
    );
  });

  it('drops the lowest priority first, whole, as the budget shrinks', async () => {
    const full = (await renderMessages(Contributions, { contributions }, countingModel(10_000))).tokenCount;
    assert.deepEqual(present(await rendered(full - 10)), ['mid', 'high']);
    assert.deepEqual(present(await rendered(full - 80)), ['high']);
    const onlyPreamble = await rendered(full - 150);
    assert.deepEqual(present(onlyPreamble), []);
    assert.ok(onlyPreamble.startsWith(CONTRIBUTIONS_PREAMBLE));
  });

  it('prunes by priority, not position', async () => {
    const reversed = [...contributions].reverse();
    const full = (await renderMessages(Contributions, { contributions: reversed }, countingModel(10_000))).tokenCount;
    const { messages } = await renderMessages(Contributions, { contributions: reversed }, countingModel(full - 10));
    assert.deepEqual(present(String(messages[0]!.content)), ['mid', 'high']);
  });

  it('renders nothing without contributions', async () => {
    const { messages } = await renderMessages(Contributions, { contributions: [] }, countingModel(100));
    assert.deepEqual(messages, []);
  });
});
