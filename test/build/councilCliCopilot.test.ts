import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_DECISION } from '../../src/cli/demo/demoModel';
import type { LedgerLine } from '../../src/core/llm/spending/ledger';
import { buildCouncilCli, COUNCIL_BUNDLE } from '../support/buildCouncilCli';
import { copilotStandIn, type CopilotStandIn } from '../support/copilotStandIn';

/*
 * The built `council` command on the copilot provider: the bundled @github/copilot-sdk starts a scripted stand-in
 * for Copilot CLI (test/support/copilotCliStandIn.ts) that answers as the demo council; and the messages a user
 * without Copilot CLI, or not logged in, gets.
 */

describe('the built council command on Copilot CLI (scripted stand-in)', function () {
  this.timeout(120_000);
  let project: string;
  let standIn: CopilotStandIn | undefined;
  before(() => buildCouncilCli());
  beforeEach(() => (project = mkdtempSync(join(tmpdir(), 'council-cli-copilot-'))));
  afterEach(() => {
    standIn?.remove();
    standIn = undefined;
    rmSync(project, { recursive: true, force: true });
  });

  const configure = (provider: Record<string, unknown>) => {
    mkdirSync(join(project, '.council'), { recursive: true });
    writeFileSync(
      join(project, '.council', 'config.json'),
      JSON.stringify({
        providers: { copilot: { type: 'copilot', ...provider } },
        models: { default: 'copilot:gpt-5-mini', answer: 'copilot:claude-sonnet-4.6' },
        limits: { maxDollars: 1 },
      }),
    );
  };

  const run = (args: readonly string[], environment: Readonly<Record<string, string>>) =>
    new Promise<{ status: number; stdout: string; stderr: string; seconds: number }>(resolve => {
      const started = Date.now();
      const env = { HOME: project, ...environment };
      execFile(process.execPath, [COUNCIL_BUNDLE, ...args], { cwd: project, env }, (error, stdout, stderr) =>
        resolve({
          status: error ? Number(error.code ?? 1) : 0,
          stdout,
          stderr,
          seconds: (Date.now() - started) / 1000,
        }),
      );
    });

  it('runs a whole council on Copilot models, priced in dollars from the Copilot table, and exits', async () => {
    standIn = copilotStandIn({ loggedIn: true, models: ['gpt-5-mini', 'claude-sonnet-4.6'], replies: [], demo: true });
    configure({ cliPath: standIn.cliPath });
    const result = await run(['ask', '--yes', '--json', DEMO_DECISION], standIn.environment);
    assert.equal(result.status, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as { state: string; file: string };
    assert.equal(printed.state, 'completed');
    const stored = JSON.parse(readFileSync(printed.file, 'utf8')) as { spending: LedgerLine[] };
    const models = new Set(stored.spending.map(line => line.model));
    assert.deepEqual([...models].sort(), ['claude-sonnet-4.6', 'gpt-5-mini']);
    assert.ok(
      stored.spending.every(line => (line.credits ?? 0) > 0),
      'every request priced',
    );
    const received = standIn.received();
    const sends = received.filter(message => message.method === 'session.send').length;
    const requests = stored.spending.reduce((sum, line) => sum + line.requests, 0);
    assert.equal(sends, requests, 'one Copilot session per governed request');
    assert.equal(received.filter(message => message.method === 'session.delete').length, sends);
    assert.equal(received.filter(message => message.method === 'runtime.shutdown').length >= 1, true);
    process.stdout.write(`      (${requests} requests in ${result.seconds.toFixed(1)} s)\n`);
  });

  it('says to log in when Copilot CLI is not logged in, and what to install when it is missing', async () => {
    standIn = copilotStandIn({ loggedIn: false, models: [], replies: [] });
    configure({ cliPath: standIn.cliPath });
    const notLoggedIn = await run(['ask', '--yes', DEMO_DECISION], standIn.environment);
    assert.equal(notLoggedIn.status, 1);
    assert.match(notLoggedIn.stderr, /Copilot CLI is not logged in \(Not authenticated\): run `copilot login`/);
    configure({});
    const missing = await run(['ask', '--yes', DEMO_DECISION], { PATH: project });
    assert.equal(missing.status, 1);
    assert.match(
      missing.stderr,
      /council: Copilot CLI is not installed: no `copilot` on the PATH \(provider "copilot"\)\. Install it with `npm install -g @github\/copilot`/,
    );
  });
});
