import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_DECISION } from '../../../../src/cli/demo/demoModel';
import type { LedgerLine } from '../../../../src/core/llm/spending/ledger';
import { DemoCouncilEndpoint } from '../../../support/demoCouncilEndpoint';
import { runCouncilMain as run } from '../../../support/runCouncilMain';

/*
 * The `council` command on a model without tool calling, end to end over HTTP: the demo council behind the scripted
 * OpenAI-compatible endpoint, answering in JSON mode (the bare object) when a request carries `response_format`.
 */

interface Printed {
  readonly state: string;
  readonly file: string;
}

describe('the council command on a model without tool calling: JSON mode', function () {
  this.timeout(30_000);
  const endpoint = new DemoCouncilEndpoint();
  let baseUrl: string;
  let project: string;
  before(async () => {
    baseUrl = await endpoint.start();
    process.env.JSON_MODE_TEST_KEY = 'k';
  });
  after(async () => {
    delete process.env.JSON_MODE_TEST_KEY;
    await endpoint.stop();
  });
  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'council-json-mode-'));
    endpoint.shapes.splice(0);
    endpoint.takesNoTools = false;
  });
  afterEach(() => rm(project, { recursive: true, force: true }));

  const configure = async (model: string | object) => {
    await mkdir(join(project, '.council'));
    await writeFile(
      join(project, '.council', 'config.json'),
      JSON.stringify({
        providers: { local: { type: 'openai-compatible', baseUrl, apiKeyEnv: 'JSON_MODE_TEST_KEY' } },
        models: { default: model },
        prices: { small: { input: 1, output: 4 } },
      }),
    );
  };

  const ask = async () => {
    const result = await run(['ask', '--yes', '--json', DEMO_DECISION], project);
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as Printed;
    assert.equal(printed.state, 'completed');
    const stored = JSON.parse(await readFile(printed.file, 'utf8')) as { spending: LedgerLine[] };
    return { ...result, ledger: stored.spending };
  };

  it('sends every structured request with response_format (the schema, not strict) and no tools; repairs as before; counts tokens', async () => {
    await configure({ provider: 'local', model: 'small', toolCalling: false });
    // The first reply is JSON of the wrong shape: zod refuses it and the repair names what was wrong.
    endpoint.failRequest(1, {
      status: 200,
      body: {
        id: 'chatcmpl-wrong',
        object: 'chat.completion',
        created: 1,
        model: 'small',
        choices: [{ index: 0, message: { role: 'assistant', content: '{"unexpected":true}' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 900, completion_tokens: 5, total_tokens: 905 },
      },
    });
    const { ledger } = await ask();
    const shapes = endpoint.shapes;
    assert.ok(
      shapes.every(shape => shape.tools.length === 0),
      'no request carried tools',
    );
    const structured = shapes.filter(shape => shape.responseFormat !== undefined);
    assert.ok(structured.length >= 3, `structured requests: ${structured.length}`);
    assert.ok(
      structured.every(shape => shape.responseFormat === 'json_schema' && shape.strict === false),
      JSON.stringify(structured.map(s => [s.responseFormat, s.strict])),
    );
    // The repair asks the same schema again, in JSON mode, with what was wrong.
    const [first, second] = shapes;
    assert.ok(first?.schemaName);
    assert.equal(second?.schemaName, first.schemaName);
    assert.match(second?.lastMessage ?? '', /did not match the required format/);
    assert.match(second?.lastMessage ?? '', /fenced code block/, 'the same repair rules as without JSON mode');
    // The prose answer is asked for as text: no response format.
    assert.ok(shapes.some(shape => shape.responseFormat === undefined));
    // Every request the endpoint answered is in the ledger, with its tokens and dollars.
    const requests = ledger.reduce((sum, line) => sum + line.requests, 0);
    assert.equal(requests, shapes.length);
    assert.ok(ledger.every(line => line.inputTokens > 0 && line.credits !== undefined && line.credits > 0));
    assert.ok(ledger.reduce((sum, line) => sum + line.outputTokens, 0) > 0);
    assert.equal(
      ledger.some(line => line.schemaRefused),
      false,
    );
    console.log(
      `      (${shapes.length} requests, ${structured.length} in JSON mode; ${ledger.reduce((s, l) => s + l.inputTokens, 0)} input tokens counted)`,
    );
  });

  it('switches a model whose endpoint refuses tools (400) to JSON mode for the rest of the session, never sending tools again', async () => {
    await configure('local:small');
    endpoint.takesNoTools = true;
    const { ledger, stderr } = await ask();
    const shapes = endpoint.shapes;
    const withTools = shapes.filter(shape => shape.tools.length > 0);
    assert.equal(withTools.length, 1, 'only the first request carried tools');
    const [refused, next] = shapes;
    // Not the same request again: the same schema, as the response format, without tools.
    assert.deepEqual(next?.tools, []);
    assert.equal(next?.responseFormat, 'json_schema');
    assert.equal(next?.schemaName, refused?.tools[0]);
    assert.ok(shapes.slice(1).every(shape => shape.tools.length === 0));
    assert.ok(shapes.slice(1).filter(shape => shape.responseFormat).length >= 3);
    const requests = ledger.reduce((sum, line) => sum + line.requests, 0);
    assert.equal(requests, shapes.length, 'the refused request is counted too');
    assert.equal(
      ledger.reduce((sum, line) => sum + (line.schemaRefused ?? 0), 0),
      1,
    );
    assert.doesNotMatch(stderr, /does not support tools.*\n.*does not support tools/);
  });
});
