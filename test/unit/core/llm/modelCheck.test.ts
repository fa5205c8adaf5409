import * as assert from 'node:assert/strict';
import { forecastText } from '../../../../src/core/llm/spending/forecastText';
import { OUTPUT_RESERVE_TOKENS } from '../../../../src/core/llm/spending/governor';
import { z } from 'zod';
import { neverCancelled } from '../../../../src/core/llm/languageModel';
import {
  checkModel,
  classifyProbe,
  forecastModelCheck,
  modelCheckForecastText,
  modelCheckReport,
  onePerFamily,
  probeRequest,
  shortTextFields,
  type ModelCheckProbe,
} from '../../../../src/core/llm/modelCheck';
import { PriceBook } from '../../../../src/core/llm/spending/prices';
import { jsonSchemaOf } from '../../../../src/core/llm/structuredOutput';
import { describeIssues } from '../../../../src/core/zodIssues';
import { ScriptedModel } from '../../../support/scriptedModel';

const Schema = z.object({
  position: z.string().regex(/\S/).describe('Your position in one sentence.'),
  confidence: z.enum(['high', 'low']),
  points: z.array(z.string().regex(/\S/)).min(1),
});

const probe: ModelCheckProbe = {
  name: 'council_model_check',
  description: 'An example reply.',
  inputSchema: jsonSchemaOf(Schema),
  prompt: 'Fill in an example.',
  validate: input => {
    const parsed = Schema.safeParse(input);
    return parsed.success ? [] : describeIssues(parsed.error.issues);
  },
};
const good = { position: 'Retry three times with backoff.', confidence: 'high', points: ['Idempotent calls only.'] };

function family(name: string, reply: ConstructorParameters<typeof ScriptedModel>[0], tools = true) {
  return new ScriptedModel(reply, { family: name, id: name, supportsToolCalling: tools });
}

describe('model check (Council: Check Models)', () => {
  it('sends one required tool with the schema as Council sends it, and says to answer only by calling it', () => {
    const request = probeRequest(probe);
    assert.equal(request.toolMode, 'required');
    assert.deepEqual(
      request.tools?.map(t => t.name),
      ['council_model_check'],
    );
    assert.equal(request.tools?.[0]?.inputSchema, probe.inputSchema);
    assert.match(String(request.messages.at(-1)?.content), /Answer only by calling the `council_model_check` tool/);
  });

  it('checks one model per family', () => {
    const models = [{ family: 'gpt-4.1' }, { family: 'gemini-2.5-pro' }, { family: 'gpt-4.1' }];
    assert.deepEqual(onePerFamily(models), [models[0], models[1]]);
  });

  it('classifies each way a family can answer', async () => {
    const accepted = await checkModel(
      family('gpt', () => ({ kind: 'toolCall', name: probe.name, input: good })),
      probe,
      neverCancelled,
    );
    assert.deepEqual(accepted.verdict, { kind: 'accepted' });

    const gemini = family('gemini', () => ({
      kind: 'error',
      error: new Error('Invalid JSON payload received. Unknown name "const" at tools[0]'),
    }));
    assert.deepEqual((await checkModel(gemini, probe, neverCancelled)).verdict, {
      kind: 'refused',
      message: 'Invalid JSON payload received. Unknown name "const" at tools[0]',
    });

    const claude = family('claude', () => 'I would recommend retrying three times.');
    assert.deepEqual((await checkModel(claude, probe, neverCancelled)).verdict, {
      kind: 'prose',
      excerpt: 'I would recommend retrying three times.',
    });

    const grok = family('grok', () => ({
      kind: 'toolCall',
      name: probe.name,
      input: { position: 'R', confidence: 'high', points: ['I', 'Idempotent calls only.'] },
    }));
    assert.deepEqual((await checkModel(grok, probe, neverCancelled)).verdict, {
      kind: 'short',
      fields: ['position', 'points[0]'],
    });

    const sloppy = family('local', () => ({
      kind: 'toolCall',
      name: probe.name,
      input: { ...good, confidence: 'sure' },
    }));
    const invalid = (await checkModel(sloppy, probe, neverCancelled)).verdict;
    assert.equal(invalid.kind, 'invalid');

    const quota = family('o3', () => ({ kind: 'error', error: new Error('ChatQuotaExceeded: quota exceeded') }));
    assert.equal((await checkModel(quota, probe, neverCancelled)).verdict.kind, 'failed');

    const plain = family('plain', () => 'never asked', false);
    assert.deepEqual((await checkModel(plain, probe, neverCancelled)).verdict, { kind: 'noTools' });
    assert.equal(plain.callCount, 0, 'a model without tool calling is not sent the probe');
  });

  it('reads tool arguments sent as a JSON string', () => {
    const verdict = classifyProbe(probe, {
      reply: {
        text: '',
        toolCalls: [{ kind: 'toolCall', callId: 'c', name: probe.name, input: JSON.stringify(good) }],
      },
    });
    assert.deepEqual(verdict, { kind: 'accepted' });
  });

  it('finds one-character text only where text is expected (not in enums)', () => {
    assert.deepEqual(shortTextFields({ position: 'ok then', confidence: 'high', points: [' '] }, probe.inputSchema), [
      'points[0]',
    ]);
  });

  it('forecasts the cost with each model tokenizer and the price book, in AI credits', async () => {
    const models = [family('gpt-4.1', () => ''), family('unknown-family', () => ''), family('plain', () => '', false)];
    const prices = new PriceBook({ 'gpt-4.1': { input: 2, output: 8 } });
    const forecast = await forecastModelCheck(models, probe, prices);
    assert.equal(forecast.rows.length, 2, 'the model without tool calling is not sent anything');
    const [gpt, unknown] = forecast.rows;
    assert.ok(gpt && unknown);
    assert.ok(gpt.inputTokens > 50 && gpt.inputTokens < 1_000, `a few hundred tokens: ${gpt.inputTokens}`);
    assert.equal(gpt.credits, (gpt.inputTokens * 2 + gpt.outputTokens * 8) / 10_000);
    assert.equal(unknown.credits, undefined);
    assert.equal(forecast.unpriced, 1);
    // Both figures from the rows: each reply expected at the probe's output, at most the governor's reserve.
    const input = gpt.inputTokens + unknown.inputTokens;
    const expected = { requests: 2, tokens: input + gpt.outputTokens + unknown.outputTokens, credits: gpt.credits };
    const most = { requests: 2, tokens: input + 2 * OUTPUT_RESERVE_TOKENS, credits: gpt.mostCredits };
    assert.ok(gpt.mostCredits !== undefined && gpt.credits !== undefined && gpt.mostCredits > gpt.credits);
    assert.equal(
      modelCheckForecastText(forecast),
      `Council will send one request to each of 2 model families: ${forecastText(expected, most)} (1 at an unknown price).`,
    );
    assert.match(modelCheckForecastText(forecast), /: about 2 requests and .*; at most 2 requests and /);
  });

  it('reports one row per family with the provider message, ready to attach to a bug report', () => {
    const report = modelCheckReport(
      [
        { family: 'gpt-4.1', model: 'GPT-4.1', vendor: 'copilot', verdict: { kind: 'accepted' } },
        {
          family: 'gemini-2.5-pro',
          model: 'Gemini 2.5 Pro',
          vendor: 'copilot',
          verdict: { kind: 'refused', message: 'Invalid JSON payload received. Unknown name "const" | 400' },
        },
      ],
      { date: '2026-11-27', councilVersion: '0.9.0', hostVersion: '1.137.0', probe },
    );
    assert.match(report, /^# Council: model check/);
    assert.match(report, /2026-11-27 · Council 0\.9\.0 · VS Code 1\.137\.0/);
    assert.match(report, /1 of 2 families accepted it/);
    assert.match(report, /\| gpt-4\.1 \| GPT-4\.1 \| copilot \| ✅ accepted \|  \|/);
    assert.match(
      report,
      /\| gemini-2\.5-pro \| Gemini 2\.5 Pro \| copilot \| ❌ refused the schema \| Invalid JSON payload received\. Unknown name "const" \\\| 400 \|/,
    );
    assert.match(report, /attach this report to your bug report/);
  });
});
