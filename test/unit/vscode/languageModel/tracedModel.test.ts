import * as assert from 'node:assert/strict';
import { neverCancelled, type ResponsePart } from '../../../../src/core/llm/languageModel';
import type { CouncilLog } from '../../../../src/vscode/log';
import { tracedModel } from '../../../../src/vscode/languageModel/tracedModel';
import { ScriptedModel } from '../../../support/scriptedModel';

function fakeLog(traceEnabled: boolean): { log: CouncilLog; lines: string[] } {
  const lines: string[] = [];
  const log = {
    traceEnabled,
    logTrace: (label: string, text: string | (() => string)) =>
      lines.push(`${label}: ${typeof text === 'function' ? text() : text}`),
  } as unknown as CouncilLog;
  return { log, lines };
}

async function drain(stream: AsyncIterable<ResponsePart>): Promise<ResponsePart[]> {
  const parts: ResponsePart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('tracedModel', () => {
  it('is the model itself unless the log is at Trace level (no prompt text is ever built)', () => {
    const model = new ScriptedModel(() => 'hi');
    assert.equal(tracedModel(model, fakeLog(false).log), model);
  });

  it('at Trace level logs the prompt and the reply, and passes the reply through unchanged', async () => {
    const { log, lines } = fakeLog(true);
    const model = tracedModel(
      new ScriptedModel(() => ({ kind: 'toolCall', name: 'answer', input: { ok: true } })),
      log,
    );
    const parts = await drain(
      model.sendRequest(
        {
          messages: [{ role: 'user', content: 'secret code' }],
          tools: [{ name: 'answer', description: '', inputSchema: {} }],
        },
        neverCancelled,
      ),
    );
    assert.equal(parts.length, 1);
    assert.equal(parts[0]?.kind, 'toolCall');
    assert.match(lines[0] ?? '', /prompt \(answer\): \[user\] secret code/);
    assert.match(lines[1] ?? '', /reply: \[tool call answer\] \{"ok":true\}/);
  });
});
