import * as assert from 'node:assert/strict';
import { neverCancelled, type ResponsePart } from '../../../../src/core/llm/languageModel';
import type { CouncilLog } from '../../../../src/vscode/log';
import { tracedModel } from '../../../../src/vscode/languageModel/tracedModel';
import { ScriptedModel } from '../../../support/scriptedModel';

function fakeLog(traceEnabled: boolean): { log: CouncilLog; lines: string[]; built: string[] } {
  const lines: string[] = [];
  const built: string[] = [];
  const log = {
    traceEnabled,
    logTrace: (label: string, text: string | (() => string)) => {
      if (!traceEnabled) return;
      const full = typeof text === 'function' ? text() : text;
      built.push(full);
      lines.push(`${label}: ${full}`);
    },
    info: (message: string) => lines.push(`info: ${message}`),
  } as unknown as CouncilLog;
  return { log, lines, built };
}

async function drain(stream: AsyncIterable<ResponsePart>): Promise<ResponsePart[]> {
  const parts: ResponsePart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('tracedModel', () => {
  it('logs nothing of the prompt or the reply unless the log is at Trace level', async () => {
    const { log, lines, built } = fakeLog(false);
    const model = tracedModel(new ScriptedModel(() => 'hi'), log);
    const parts = await drain(
      model.sendRequest({ messages: [{ role: 'user', content: 'secret code' }] }, neverCancelled),
    );
    assert.deepEqual(parts, [{ kind: 'text', text: 'hi' }]);
    assert.deepEqual(lines, []);
    assert.deepEqual(built, []);
  });

  it('notes at Info level a request whose tool schema the provider refused, with its message but not the prompt', async () => {
    const { log, lines } = fakeLog(false);
    const refusing = new ScriptedModel(
      () => ({ kind: 'error', error: new Error('Invalid JSON payload received. Unknown name "const"') }),
      { family: 'gemini-2.5-pro' },
    );
    await assert.rejects(
      drain(
        tracedModel(refusing, log).sendRequest(
          {
            messages: [{ role: 'user', content: 'secret code' }],
            tools: [{ name: 'answer', description: '', inputSchema: {} }],
            toolMode: 'required',
          },
          neverCancelled,
        ),
      ),
      /Unknown name/,
    );
    assert.equal(lines.length, 1);
    assert.match(
      lines[0] ?? '',
      /^info: model=gemini-2\.5-pro refused the tool schema of answer; .*JSON in the reply.*Unknown name "const"/,
    );
    assert.doesNotMatch(lines[0] ?? '', /secret code/);
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
