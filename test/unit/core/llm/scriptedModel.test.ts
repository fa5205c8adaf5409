import assert from 'node:assert/strict';
import { z } from 'zod';
import { LanguageModelFailure, neverCancelled } from '../../../../src/core/llm/languageModel';
import { requestStructured } from '../../../../src/core/llm/structuredOutput';
import { jsonReply, replyByTool, ScriptedModel, valueReply } from '../../../support/scriptedModel';

const Pick = z.object({ personas: z.array(z.string()) });
const Verdict = z.object({ converged: z.boolean() });
const messages = [{ role: 'user' as const, content: 'Go.' }];

function routes() {
  return replyByTool(
    {
      select_personas: valueReply({ personas: ['architect'] }),
      cycle_verdict: [jsonReply({ converged: 'maybe' }), valueReply({ converged: true })],
    },
    'free text',
  );
}

for (const supportsToolCalling of [true, false]) {
  describe(`ScriptedModel replyByTool (tool calling: ${supportsToolCalling})`, () => {
    it('routes each structured request by its schema name and plays sequences in order', async () => {
      const model = new ScriptedModel(routes(), { supportsToolCalling });
      const pick = await requestStructured(
        model,
        { schema: Pick, name: 'select_personas', description: 'd', messages },
        neverCancelled,
      );
      assert.deepEqual(pick, { personas: ['architect'] });
      const verdict = await requestStructured(
        model,
        { schema: Verdict, name: 'cycle_verdict', description: 'd', messages },
        neverCancelled,
      );
      assert.deepEqual(verdict, { converged: true });
      assert.equal(model.callCount, 3, 'the first verdict needed one repair');
      assert.equal(model.requests[0]?.toolMode, supportsToolCalling ? 'required' : undefined);
    });

    it('fails loudly for a name nobody scripted', async () => {
      const model = new ScriptedModel(replyByTool({}), { supportsToolCalling });
      await assert.rejects(
        requestStructured(model, { schema: Pick, name: 'unknown_step', description: 'd', messages }, neverCancelled),
        (e: unknown) => e instanceof LanguageModelFailure && /no reply scripted for "unknown_step"/.test(e.message),
      );
    });
  });
}

describe('ScriptedModel', () => {
  it('counts tokens as ceil(chars / 4) and uses the fallback for free text', async () => {
    const model = new ScriptedModel(routes(), { maxInputTokens: 8_000 });
    assert.equal(await model.countTokens('12345'), 2);
    assert.equal(model.maxInputTokens, 8_000);
    const parts = [];
    for await (const part of model.sendRequest({ messages }, neverCancelled)) parts.push(part);
    assert.deepEqual(parts, [{ kind: 'text', text: 'free text' }]);
  });
});
