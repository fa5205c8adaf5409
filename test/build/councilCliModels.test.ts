import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_DECISION } from '../../src/cli/demo/demoModel';
import type { LedgerLine } from '../../src/core/llm/spending/ledger';
import { buildCouncilCli, COUNCIL_BUNDLE } from '../support/buildCouncilCli';
import { DemoCouncilEndpoint } from '../support/demoCouncilEndpoint';

/*
 * The built `council` command on a config file with a model per seat: every request goes over HTTP to a scripted
 * OpenAI-compatible endpoint (the demo council behind it), each to the model its seat names; the cost is in dollars.
 */
/** How often each value occurs. */
function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

describe('the built council command with a model per seat', function () {
  this.timeout(60_000);
  const endpoint = new DemoCouncilEndpoint();
  let baseUrl: string;
  let project: string;
  before(async () => {
    buildCouncilCli();
    baseUrl = await endpoint.start();
  });
  after(() => endpoint.stop());
  beforeEach(() => (project = mkdtempSync(join(tmpdir(), 'council-cli-models-'))));
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  /** Runs the command without blocking: the scripted endpoint answers from this process. */
  const run = (args: readonly string[], environment: Record<string, string>) =>
    new Promise<{ status: number; stdout: string; stderr: string }>(resolve => {
      const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: project, ...environment };
      execFile(process.execPath, [COUNCIL_BUNDLE, ...args], { cwd: project, env }, (error, stdout, stderr) =>
        resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('sends each seat to its model and the answer to its own, every request priced from the config', async () => {
    mkdirSync(join(project, '.council'));
    writeFileSync(
      join(project, '.council', 'config.json'),
      JSON.stringify({
        providers: {
          hosted: { type: 'openai-compatible', baseUrl, apiKeyEnv: 'SCRIPTED_KEY' },
          other: { type: 'openai-compatible', baseUrl, apiKeyEnv: 'SCRIPTED_KEY' },
        },
        models: {
          default: 'hosted:family-a',
          answer: 'other:family-answer',
          seats: { 'security-expert': 'other:family-b' },
        },
        prices: {
          'family-a': { input: 1, output: 4 },
          'family-b': { input: 3, output: 15 },
          'family-answer': { input: 5, output: 25 },
        },
        limits: { maxDollars: 1 },
      }),
    );
    endpoint.models.splice(0);
    const result = await run(['ask', '--yes', '--json', DEMO_DECISION], { SCRIPTED_KEY: 'k' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /Models: config .*\.council\/config\.json/);
    const printed = JSON.parse(result.stdout) as { state: string; file: string };
    assert.equal(printed.state, 'completed');
    const stored = JSON.parse(readFileSync(printed.file, 'utf8')) as {
      spending: LedgerLine[];
    };
    const modelsOf = (who: string) => [...new Set(stored.spending.filter(l => l.who === who).map(l => l.model))];
    assert.deepEqual(modelsOf('Security Expert'), ['family-b']);
    assert.deepEqual(modelsOf('Synthesis'), ['family-answer']);
    assert.deepEqual(modelsOf('Council'), ['family-a']);
    const others = stored.spending.filter(l => !['Security Expert', 'Synthesis', 'Council'].includes(l.who));
    assert.ok(others.length > 0 && others.every(l => l.model === 'family-a'), JSON.stringify(others));
    // What went over the wire matches the ledger, request for request.
    const sent = stored.spending.reduce((sum, l) => sum + l.requests, 0);
    assert.equal(endpoint.models.length, sent);
    assert.deepEqual([...new Set(endpoint.models)].sort(), ['family-a', 'family-answer', 'family-b']);
    assert.ok(
      stored.spending.every(l => l.credits !== undefined && l.credits > 0),
      'every model is priced',
    );
    console.log(`      (${sent} requests over HTTP, by model: ${JSON.stringify(countBy(endpoint.models))})`);
  });

  it('prints the cost by seat in dollars after the answer, and refuses a missing key naming its variable', async () => {
    mkdirSync(join(project, '.council'));
    writeFileSync(
      join(project, '.council', 'config.json'),
      JSON.stringify({
        providers: { hosted: { type: 'openai-compatible', baseUrl, apiKeyEnv: 'SCRIPTED_KEY' } },
        models: { default: 'hosted:family-a' },
        prices: { 'family-a': { input: 1, output: 4 } },
      }),
    );
    const done = await run(['ask', '--yes', DEMO_DECISION], { SCRIPTED_KEY: 'k' });
    assert.equal(done.status, 0, done.stderr);
    assert.match(done.stderr, /Cost by seat:\n {2}Council · family-a · \d+ requests? · [\d.k]+ tokens · \$\d/);
    console.log(`      (${/Cost by seat:[^]*?(?=\nSaved)/.exec(done.stderr)?.[0].replace(/\n/g, ' | ')})`);
    const missing = await run(['ask', '--yes', DEMO_DECISION], {});
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /set the environment variable SCRIPTED_KEY/);
  });
});
