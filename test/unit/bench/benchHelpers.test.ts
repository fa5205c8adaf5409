import * as assert from 'node:assert/strict';
import { checkCriticalPath, criticalPath, weightedCriticalPath } from '../../../bench/criticalPath';
import { LatencyModel, stepOf, TYPICAL_OUTPUT_TOKENS } from '../../../bench/latencyModel';
import { formatTable } from '../../../bench/council.bench';
import { labelRows, summaryRows } from '../../../bench/run';
import { neverCancelled, type ModelRequest, type ResponsePart } from '../../../src/core/llm/languageModel';
import { WRITE_ANSWER_TASK } from '../../../src/core/council/prompts/answerTask';
import { ScriptedModel } from '../../support/scriptedModel';

describe('bench helpers', () => {
  describe('criticalPath', () => {
    it('passes its own self-check', () => {
      assert.doesNotThrow(() => checkCriticalPath());
    });

    it('chains calls that end before the next starts, and treats touching or overlapping ones as parallel', () => {
      assert.deepEqual(
        criticalPath([
          { start: 0, end: 1 },
          { start: 2, end: 3 },
        ]),
        { length: 2, chain: [0, 1] },
      );
      assert.equal(
        criticalPath([
          { start: 0, end: 2 },
          { start: 2, end: 3 },
        ]).length,
        1,
      );
      assert.equal(
        criticalPath([
          { start: 0, end: 5 },
          { start: 1, end: 4 },
        ]).length,
        1,
      );
    });

    it('rejects an interval that ends before it starts', () => {
      assert.throws(() => criticalPath([{ start: 3, end: 1 }]), /invalid interval/);
    });

    it("weights a chain by its calls' nominal durations", () => {
      const got = weightedCriticalPath([
        { start: 0, end: 10, weight: 800 },
        { start: 11, end: 20, weight: 6600 },
        { start: 11, end: 15, weight: 50 },
      ]);
      assert.equal(got.total, 7400);
      assert.deepEqual(got.chain, [0, 1]);
      assert.equal(weightedCriticalPath([]).total, 0);
    });
  });

  describe('LatencyModel', () => {
    const answerRequest: ModelRequest = { messages: [{ role: 'user', content: `Question.\n\n${WRITE_ANSWER_TASK}` }] };
    const toolRequest: ModelRequest = {
      messages: [{ role: 'user', content: 'Contribute.' }],
      tools: [{ name: 'contribute_to_debate', description: 'x', inputSchema: {} }],
      toolMode: 'required',
    } as ModelRequest;

    it('classifies the prose answer by its prompt and structured steps by their tool', () => {
      assert.equal(stepOf(answerRequest), 'answer');
      assert.equal(stepOf(toolRequest), 'contribute');
      assert.equal(stepOf({ messages: [{ role: 'user', content: 'hello' }] }), 'other');
    });

    it('streams text: the first chunk after time-to-first-token, the rest spread over output tokens / rate', async () => {
      const inner = new ScriptedModel(() => 'word '.repeat(200));
      // 800 ms + 600 tokens at 60/s = 10.8 s model time; at scale 0.01: 8 ms to the first chunk, ~108 ms in all.
      const model = new LatencyModel(inner, { ttftMs: 800, tokensPerSecond: 60, scale: 0.01 });
      const parts: ResponsePart[] = [];
      for await (const part of model.sendRequest(answerRequest, neverCancelled)) parts.push(part);
      await model.settled();
      const [call] = model.calls;
      assert.ok(call);
      assert.equal(call.step, 'answer');
      assert.equal(call.outcome, 'ok');
      assert.equal(call.outputTokens, TYPICAL_OUTPUT_TOKENS.answer);
      assert.equal(call.nominalMs, 800 + (600 / 60) * 1000);
      assert.ok(parts.length > 1, 'the text arrives in several chunks');
      assert.equal(parts.map(p => (p.kind === 'text' ? p.text : '')).join(''), 'word '.repeat(200));
      assert.ok(call.firstTextAt - call.start >= 7, `first chunk after TTFT (${call.firstTextAt - call.start} ms)`);
      assert.ok(call.end - call.start >= 100, `output time elapses (${call.end - call.start} ms)`);
      assert.ok(
        call.firstTextAt - call.start < call.end - call.start - 50,
        'the first chunk comes well before the end',
      );
      assert.ok(call.promptTokens > 0);
    });

    it('delivers a tool call whole once the output time is over', async () => {
      const inner = new ScriptedModel(() => ({
        kind: 'toolCall',
        name: 'contribute_to_debate',
        input: { argument: 'a' },
      }));
      const model = new LatencyModel(inner, { ttftMs: 800, tokensPerSecond: 60, scale: 0.01 });
      const parts: ResponsePart[] = [];
      for await (const part of model.sendRequest(toolRequest, neverCancelled)) parts.push(part);
      assert.deepEqual(
        parts.map(p => p.kind),
        ['toolCall'],
      );
      const [call] = model.calls;
      assert.ok(
        call && call.end - call.start >= 60,
        `TTFT + 350 tokens at 60/s, scaled (${call ? call.end - call.start : NaN} ms)`,
      );
    });
  });

  describe('tables and summaries', () => {
    it('right-aligns numeric columns and left-aligns text', () => {
      const table = formatTable(
        ['name', 'n'],
        [
          ['a', '1'],
          ['bbb', '22 ms'],
        ],
      );
      assert.equal(table, ['name      n', '----  -----', 'a         1', 'bbb   22 ms'].join('\n'));
    });

    it("turns a bench result into rows, and names the pipeline's request count as /plan's", () => {
      const rows = summaryRows({ wallMs: 604.65, calls: 20, nested: { ok: true } });
      assert.deepEqual(rows, [
        { metric: 'wallMs', value: '604.65' },
        { metric: 'calls', value: '20' },
        { metric: 'nested.ok', value: 'true' },
      ]);
      assert.deepEqual(labelRows('pipeline', rows)[0], { metric: '/plan requests', value: '20' });
      assert.deepEqual(labelRows('other', rows), rows);
      assert.deepEqual(summaryRows({ summary: [{ metric: 'm', value: 'v' }] }), [{ metric: 'm', value: 'v' }]);
    });
  });
});
