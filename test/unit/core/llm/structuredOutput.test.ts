import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  CancelledError,
  LanguageModelFailure,
  neverCancelled,
  withSendRequest,
  type ChatMessage,
  type LanguageModel,
  type MessagePart,
} from '../../../../src/core/llm/languageModel';
import { dedupeArray } from '../../../../src/core/llm/replyNormalizing';
import { describeModelFailure } from '../../../../src/core/llm/failureMessages';
import { jsonSchemaOf, RESPONSE_FORMAT_HEADING, requestStructured } from '../../../../src/core/llm/structuredOutput';
import {
  cancellationSource,
  jsonReply,
  ScriptedModel,
  toolCallReply,
  type Responder,
  type ScriptedReply,
} from '../../../support/scriptedModel';

const Verdict = z.object({
  converged: z.boolean().describe('Whether the panel agrees'),
  score: z.number().int().min(1).max(5),
  notes: z.array(z.string()),
});
const good = { converged: true, score: 4, notes: ['ok'] };
const prompt: readonly ChatMessage[] = [{ role: 'user', content: 'Judge the debate.' }];

function ask(model: LanguageModel, extra: { maxRepairs?: number } = {}) {
  return requestStructured(
    model,
    { schema: Verdict, name: 'cycle_verdict', description: 'The verdict.', messages: prompt, ...extra },
    neverCancelled,
  );
}

function sequence(...replies: ScriptedReply[]): Responder {
  return (_request, i) => replies[Math.min(i, replies.length - 1)] ?? '';
}

function textModel(...replies: ScriptedReply[]): ScriptedModel {
  return new ScriptedModel(sequence(...replies), { supportsToolCalling: false });
}

function lastUserText(model: ScriptedModel): string {
  const last = model.lastRequest.messages.at(-1);
  assert.ok(last);
  return typeof last.content === 'string'
    ? last.content
    : last.content
        .map((p: MessagePart) => (p.kind === 'toolResult' ? p.content : p.kind === 'text' ? p.text : ''))
        .join('');
}

async function rejectsWith(promise: Promise<unknown>, check: (error: unknown) => boolean): Promise<unknown> {
  let caught: unknown;
  await promise.then(
    () => assert.fail('expected a rejection'),
    error => (caught = error),
  );
  assert.ok(check(caught), `unexpected error: ${String(caught)}`);
  return caught;
}

describe('requestStructured', () => {
  describe('with a tool-calling model', () => {
    it('sends one required tool with the JSON Schema and returns the validated tool input', async () => {
      const model = new ScriptedModel(sequence(toolCallReply('cycle_verdict', good)));
      assert.deepEqual(await ask(model), good);
      const request = model.lastRequest;
      assert.equal(request.toolMode, 'required');
      assert.equal(request.tools.length, 1);
      assert.equal(request.tools[0]?.name, 'cycle_verdict');
      const schema = request.tools[0]?.inputSchema as {
        properties: Record<string, { description?: string }>;
        required: string[];
      };
      assert.deepEqual(schema.required.sort(), ['converged', 'notes', 'score']);
      assert.equal(schema.properties['converged']?.description, 'Whether the panel agrees');
      assert.deepEqual(
        request.messages,
        [...prompt, { role: 'user', content: 'Answer only by calling the `cycle_verdict` tool.' }],
        'no fenced-JSON instruction on the tool path; the prompt says to answer only by calling the tool',
      );
    });

    it('accepts a tool input delivered as a JSON string', async () => {
      const model = new ScriptedModel(sequence(toolCallReply('cycle_verdict', JSON.stringify(good))));
      assert.deepEqual(await ask(model), good);
    });

    it('accepts fenced JSON text when the model answers without calling the tool', async () => {
      const model = new ScriptedModel(sequence(jsonReply(good)));
      assert.deepEqual(await ask(model), good);
      assert.equal(model.callCount, 1);
    });

    it('repairs a schema mismatch by answering the tool call with the issues', async () => {
      const model = new ScriptedModel(
        sequence(toolCallReply('cycle_verdict', { ...good, score: 9 }), toolCallReply('cycle_verdict', good)),
      );
      assert.deepEqual(await ask(model), good);
      assert.equal(model.callCount, 2);
      const [assistant, user] = model.lastRequest.messages.slice(-2);
      assert.equal(assistant?.role, 'assistant');
      const call = (assistant?.content as readonly MessagePart[]).find(p => p.kind === 'toolCall');
      const result = (user?.content as readonly MessagePart[]).find(p => p.kind === 'toolResult');
      assert.ok(call?.kind === 'toolCall' && result?.kind === 'toolResult');
      assert.equal(result.callId, call.callId, 'the tool call is answered by its own result');
      assert.match(result.content, /score: .*5/);
    });

    it('repairs a reply that made no tool call and no JSON', async () => {
      const model = new ScriptedModel(sequence('I think they agree.', toolCallReply('cycle_verdict', good)));
      assert.deepEqual(await ask(model), good);
      assert.match(lastUserText(model), /No call to the `cycle_verdict` tool/);
      assert.equal(model.lastRequest.messages.at(-2)?.content, 'I think they agree.');
    });
  });

  describe('with a model without tool calling', () => {
    it('appends a fenced-JSON instruction with the schema and parses the fence', async () => {
      const model = textModel(jsonReply(good));
      assert.deepEqual(await ask(model), good);
      const request = model.lastRequest;
      assert.equal(request.tools.length, 0);
      assert.equal(request.toolMode, undefined);
      assert.equal(request.messages.length, 2);
      const instruction = request.messages[1]?.content as string;
      assert.ok(instruction.startsWith(`${RESPONSE_FORMAT_HEADING}cycle_verdict`));
      assert.match(instruction, /```json/);
      assert.match(instruction, /"converged"/);
      // The same schema goes as the request's response format, for a provider's JSON mode.
      assert.deepEqual(request.responseFormat, {
        name: 'cycle_verdict',
        description: 'The verdict.',
        schema: jsonSchemaOf(Verdict),
      });
    });

    it('parses bare JSON', async () => {
      assert.deepEqual(await ask(textModel(JSON.stringify(good))), good);
    });

    it('parses a fence surrounded by prose', async () => {
      const reply = `Here is my verdict.\n\n${jsonReply(good)}\n\nLet me know if you need more.`;
      assert.deepEqual(await ask(textModel(reply)), good);
    });

    it('skips a non-JSON code block before the JSON one', async () => {
      const reply = `Example:\n\`\`\`ts\nconst x = 1;\n\`\`\`\nAnswer:\n${jsonReply(good)}`;
      assert.deepEqual(await ask(textModel(reply)), good);
    });

    it('keeps a string value that itself contains a code fence', async () => {
      const withCode = { ...good, notes: ['use:\n```ts\nrun()\n```'] };
      assert.deepEqual(await ask(textModel(jsonReply(withCode))), withCode);
    });

    it('uses a tool call when the model makes one anyway', async () => {
      assert.deepEqual(await ask(textModel(toolCallReply('cycle_verdict', good))), good);
    });

    it('repairs malformed JSON, showing the model its reply and the parse error', async () => {
      const model = textModel('```json\n{"converged": true, score: 4}\n```', jsonReply(good));
      assert.deepEqual(await ask(model), good);
      assert.equal(model.callCount, 2);
      assert.equal(model.lastRequest.messages.at(-2)?.role, 'assistant');
      assert.match(lastUserText(model), /could not be parsed/);
    });

    it('repairs truncated JSON, saying it was cut off', async () => {
      const model = textModel('```json\n{"converged": true, "score": 4, "notes": ["o', jsonReply(good));
      assert.deepEqual(await ask(model), good);
      assert.match(lastUserText(model), /cut off at your output limit.*same required fields but shorter/);
    });

    it('repairs a schema mismatch, listing each issue with its path', async () => {
      const model = textModel(jsonReply({ converged: 'yes', score: 4, notes: [1] }), jsonReply(good));
      assert.deepEqual(await ask(model), good);
      const text = lastUserText(model);
      // The wording a workflow file's author reads: what was expected, and what the reply held there.
      assert.match(text, /^- converged: Expected `true` or `false`, found the text `yes`\.$/m);
      assert.match(text, /^- notes\[0\]: Expected text, found the number `1`\.$/m);
    });

    it('repairs an empty reply', async () => {
      const model = textModel('   ', jsonReply(good));
      assert.deepEqual(await ask(model), good);
      assert.match(lastUserText(model), /empty/);
      assert.equal(model.lastRequest.messages.at(-2)?.content, '(empty reply)', 'no empty assistant message is sent');
    });
  });

  it('normalizes a reply before validating it, so a fixable reply needs no repair, and reports what it changed', async () => {
    const model = new ScriptedModel(
      sequence(toolCallReply('cycle_verdict', { converged: true, score: 4, notes: ['ok', 'ok'] })),
    );
    const Unique = Verdict.refine(v => new Set(v.notes).size === v.notes.length, {
      message: 'notes repeat',
      path: ['notes'],
    });
    const changes: string[] = [];
    const reply = await requestStructured(
      model,
      {
        schema: Unique,
        name: 'cycle_verdict',
        description: 'The verdict.',
        messages: prompt,
        normalize: (raw, note) => {
          dedupeArray(raw, 'notes', undefined, 'note', note);
          return raw;
        },
        onNormalized: c => changes.push(...c),
      },
      neverCancelled,
    );
    assert.deepEqual(reply.notes, ['ok']);
    assert.equal(model.callCount, 1, 'no repair round');
    assert.deepEqual(changes, ['dropped duplicate note "ok"']);
  });

  it('a repair after the normalizer dropped parts of the reply says what it dropped, so they are not sent again', async () => {
    const Filed = z.object({ files: z.array(z.string()).min(1) });
    const known = new Set(['src/a.ts']);
    const model = new ScriptedModel(
      sequence(
        toolCallReply('filed', { files: ['src/x.ts', 'src/y.ts'] }),
        toolCallReply('filed', { files: ['src/a.ts'] }),
      ),
    );
    const reply = await requestStructured(
      model,
      {
        schema: Filed,
        name: 'filed',
        description: 'Files.',
        messages: prompt,
        normalize: (raw, note) => {
          const value = raw as { files: string[] };
          for (const file of value.files.filter(f => !known.has(f))) note(`dropped "${file}": no such file`);
          return { files: value.files.filter(f => known.has(f)) };
        },
      },
      neverCancelled,
    );
    assert.deepEqual(reply, { files: ['src/a.ts'] });
    const repair = JSON.stringify(model.requests[1]?.messages.at(-1));
    assert.match(repair, /files: Use at least 1 item \(found 0\)/);
    assert.match(repair, /Council changed your reply as follows; do not send what was dropped again/);
    assert.match(repair, /dropped \\"src\/x.ts\\": no such file.*dropped \\"src\/y.ts\\": no such file/);
  });

  it('validates the reply as sent when a normalizer throws', async () => {
    const model = new ScriptedModel(sequence(toolCallReply('cycle_verdict', good)));
    const reply = await requestStructured(
      model,
      {
        schema: Verdict,
        name: 'cycle_verdict',
        description: 'The verdict.',
        messages: prompt,
        normalize: () => {
          throw new Error('bug');
        },
      },
      neverCancelled,
    );
    assert.deepEqual(reply, good);
  });

  it('gives up after maxRepairs with a malformedReply error naming the schema and the issues', async () => {
    const model = textModel(jsonReply({ converged: true, score: 0, notes: [] }));
    const error = await rejectsWith(ask(model), e => e instanceof LanguageModelFailure);
    assert.ok(error instanceof LanguageModelFailure);
    assert.equal(error.kind, 'malformedReply');
    assert.match(
      error.message,
      /^cycle_verdict: the model's reply did not match the expected format after 3 attempts: score: /,
    );
    assert.equal(model.callCount, 3);
  });

  it('does not pay for a repair that cannot help: a reply cut at the same length twice stops there', async () => {
    const cut = '```json\n{"converged": true, "score": 4, "notes": ["a long note that the output limit cuts';
    const model = textModel(cut, cut, jsonReply(good));
    const retries: number[] = [];
    const error = await rejectsWith(
      requestStructured(
        model,
        {
          schema: Verdict,
          name: 'cycle_verdict',
          description: 'The verdict.',
          messages: prompt,
          onRetry: attempt => retries.push(attempt),
        },
        neverCancelled,
      ),
      e => e instanceof LanguageModelFailure,
    );
    assert.match(String((error as Error).message), /cut off at its output limit.*larger output limit/);
    assert.equal(model.callCount, 2, 'the third request was not sent');
    assert.deepEqual(retries, [2], 'the one retry was announced');
  });

  it('a blank text where none is required is dropped, not repaired; a blank required text is still repaired', async () => {
    const WithReason = z.object({ verdict: z.string().min(1), reason: z.string().min(1).optional() });
    const changes: string[][] = [];
    const askReason = (model: ScriptedModel) =>
      requestStructured(
        model,
        {
          schema: WithReason,
          name: 'judge',
          description: 'Judge.',
          messages: prompt,
          onNormalized: c => changes.push([...c]),
        },
        neverCancelled,
      );
    const blankOptional = textModel(jsonReply({ verdict: 'yes', reason: '' }));
    assert.deepEqual(await askReason(blankOptional), { verdict: 'yes' });
    assert.equal(blankOptional.callCount, 1);
    assert.deepEqual(changes, [['dropped the blank `reason`']]);
    const blankRequired = textModel(jsonReply({ verdict: '', reason: 'r' }), jsonReply({ verdict: 'no' }));
    assert.deepEqual(await askReason(blankRequired), { verdict: 'no' });
    assert.equal(blankRequired.callCount, 2);
  });

  it('honours a custom maxRepairs of 0', async () => {
    const model = textModel('nope');
    await rejectsWith(
      ask(model, { maxRepairs: 0 }),
      e => e instanceof LanguageModelFailure && /after 1 attempt:/.test(e.message),
    );
    assert.equal(model.callCount, 1);
  });

  it('propagates a model that throws mid-stream as a LanguageModelFailure without repairing', async () => {
    const model = textModel({
      kind: 'error',
      error: new Error('connection reset'),
      after: [{ kind: 'text', text: '```json\n{' }],
    });
    const error = await rejectsWith(ask(model), e => e instanceof LanguageModelFailure);
    assert.ok(error instanceof LanguageModelFailure);
    assert.equal(error.kind, 'unknown');
    assert.match(error.message, /connection reset/);
    assert.equal(model.callCount, 1);
  });

  it('keeps the kind of a LanguageModelFailure the model throws', async () => {
    const model = textModel({ kind: 'error', error: new LanguageModelFailure('blocked', 'filtered') });
    const error = await rejectsWith(ask(model), e => e instanceof LanguageModelFailure);
    assert.equal((error as LanguageModelFailure).kind, 'blocked');
  });

  it('throws CancelledError without calling the model when already cancelled', async () => {
    const model = textModel(jsonReply(good));
    const cancellation = cancellationSource();
    cancellation.cancel();
    const request = { schema: Verdict, name: 'cycle_verdict', description: 'd', messages: prompt };
    await rejectsWith(requestStructured(model, request, cancellation.token), e => e instanceof CancelledError);
    assert.equal(model.callCount, 0);
  });

  it('throws CancelledError when cancelled during a call, and does not retry', async () => {
    const model = new ScriptedModel(sequence(jsonReply(good)), { supportsToolCalling: false, latencyMs: 5_000 });
    const cancellation = cancellationSource();
    const request = { schema: Verdict, name: 'cycle_verdict', description: 'd', messages: prompt };
    const pending = requestStructured(model, request, cancellation.token);
    setTimeout(() => cancellation.cancel(), 10);
    const started = Date.now();
    await rejectsWith(pending, e => e instanceof CancelledError);
    assert.ok(Date.now() - started < 1_000, 'cancellation interrupts the call');
    assert.equal(model.callCount, 1);
  });

  it('throws CancelledError when cancelled mid-stream even if the reply would have needed a repair', async () => {
    const cancellation = cancellationSource();
    const model = textModel({
      kind: 'parts',
      parts: [
        { kind: 'text', text: 'not json' },
        { kind: 'text', text: '...', delayMs: 50 },
      ],
    });
    const request = { schema: Verdict, name: 'cycle_verdict', description: 'd', messages: prompt };
    const pending = requestStructured(model, request, cancellation.token);
    setTimeout(() => cancellation.cancel(), 5);
    await rejectsWith(pending, e => e instanceof CancelledError);
    assert.equal(model.callCount, 1);
  });
});

describe('requestStructured: a provider that refuses the tool schema', () => {
  const refusal = (message: string): ScriptedReply => ({ kind: 'error', error: new Error(message) });

  for (const message of [
    'Invalid JSON payload received. Unknown name "const" at \'tools[0].function_declarations[0].parameters\'',
    'Request Failed: 400 Bad Request',
    'Invalid schema for function cycle_verdict',
  ]) {
    it(`asks once more without tools, for fenced JSON, at no repair: "${message.slice(0, 30)}…"`, async () => {
      const model = new ScriptedModel(sequence(refusal(message), jsonReply(good)));
      const refused: string[] = [];
      const value = await requestStructured(
        model,
        {
          schema: Verdict,
          name: 'cycle_verdict',
          description: 'The verdict.',
          messages: prompt,
          maxRepairs: 0,
          onToolRefused: detail => refused.push(detail),
        },
        neverCancelled,
      );
      assert.deepEqual(value, good);
      assert.equal(model.callCount, 2);
      assert.equal(model.requests[0]?.toolMode, 'required');
      assert.deepEqual(model.requests[1]?.tools, [], 'the second request carries no tool');
      assert.match(lastUserText(model), new RegExp(`^${RESPONSE_FORMAT_HEADING}cycle_verdict`));
      assert.match(lastUserText(model), /"score"/, 'the same schema, in the prompt');
      assert.equal(model.requests[1]?.responseFormat, undefined, 'a refused schema is not sent as a format either');
      assert.equal(refused.length, 1);
      assert.match(refused[0] ?? '', new RegExp(message.slice(0, 12).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    });
  }

  it('asks in JSON mode once the model says, after the refusal, that it takes no tools at all', async () => {
    const scripted = new ScriptedModel(
      sequence(refusal('400 Bad Request: model does not support tools'), jsonReply(good)),
    );
    let tools = true;
    const model: LanguageModel = {
      ...withSendRequest(scripted, async function* (request, token) {
        try {
          yield* scripted.sendRequest(request, token);
        } catch (error) {
          tools = false;
          throw error;
        }
      }),
      get supportsToolCalling() {
        return tools;
      },
    };
    assert.deepEqual(await ask(model), good);
    assert.equal(scripted.requests[1]?.responseFormat?.name, 'cycle_verdict');
    assert.deepEqual(scripted.requests[1]?.tools, []);
  });

  it('falls back only once: a refusal of the JSON request too is the failure', async () => {
    const model = new ScriptedModel(sequence(refusal('400 Bad Request')));
    await rejectsWith(ask(model), e => e instanceof LanguageModelFailure && /400 Bad Request/.test(e.message));
    assert.equal(model.callCount, 2);
  });

  it('does not fall back on other failures (a rate limit is not a schema problem)', async () => {
    const model = new ScriptedModel(sequence(refusal('429 Too Many Requests: rate limit'), jsonReply(good)));
    await rejectsWith(ask(model), e => e instanceof LanguageModelFailure && e.kind === 'rateLimited');
    assert.equal(model.callCount, 1);
  });

  it('the fallback reply still gets its repairs', async () => {
    const model = new ScriptedModel(
      sequence(refusal('400 Bad Request'), jsonReply({ ...good, score: 9 }), jsonReply(good)),
    );
    assert.deepEqual(await ask(model, { maxRepairs: 1 }), good);
    assert.equal(model.callCount, 3);
    assert.deepEqual(model.lastRequest.tools, []);
  });
});

describe('requestStructured: a reply cut at the model output limit', () => {
  const Long = z.object({
    summary: z.string().min(1),
    points: z.array(z.string().min(1)).min(1),
  });
  const long = {
    summary: 'A summary. '.repeat(40),
    points: Array.from({ length: 30 }, (_, i) => `Point ${i} `.repeat(8)),
  };

  /**
   * A model whose replies stop after `tokens` tokens, however the request is worded; a token is about 4 characters,
   * so the cut falls a few characters apart from one reply to the next (a cut at the same length is no signature).
   */
  function cuttingModel(tools: boolean, tokens: number): ScriptedModel {
    let replies = 0;
    const cut = (text: string) => text.slice(0, tokens * 4 - 3 * replies++);
    return new ScriptedModel(
      request =>
        request.toolMode === 'required'
          ? { kind: 'toolCall', name: 'summarize', input: cut(JSON.stringify(long)) }
          : cut(`\`\`\`json\n${JSON.stringify(long)}\n\`\`\``),
      { supportsToolCalling: tools, maxOutputTokens: tokens },
    );
  }

  for (const tools of [false, true]) {
    it(`gets one repair that says so, then a message naming the limit: 2 requests, not 3 (${tools ? 'tool call' : 'fenced JSON'})`, async () => {
      const model = cuttingModel(tools, 640);
      const error = await rejectsWith(
        requestStructured(
          model,
          { schema: Long, name: 'summarize', description: 'Summarize.', messages: prompt },
          neverCancelled,
        ),
        e => e instanceof LanguageModelFailure && e.kind === 'malformedReply',
      );
      assert.equal(model.callCount, 2);
      assert.match(lastUserText(model), /cut off at your output limit.*same required fields but shorter/);
      const message = (error as Error).message;
      assert.match(message, /cut off at its output limit/);
      assert.match(message, /640 tokens/);
      assert.equal(describeModelFailure(error as LanguageModelFailure), message, 'shown to the user as it is');
    });
  }

  it('a shorter reply after the cut is accepted', async () => {
    const model = new ScriptedModel(
      sequence('```json\n{"summary": "A very long summ', jsonReply({ summary: 'Short.', points: ['One.'] })),
      { supportsToolCalling: false },
    );
    assert.deepEqual(
      await requestStructured(
        model,
        { schema: Long, name: 'summarize', description: 'Summarize.', messages: prompt },
        neverCancelled,
      ),
      { summary: 'Short.', points: ['One.'] },
    );
    assert.equal(model.callCount, 2);
    assert.doesNotMatch(JSON.stringify(model.lastRequest.messages), /A very long summ/, 'the cut text is not resent');
  });
});
