/**
 * The integration test entry VS Code loads as `extensionTestsPath` (web worker or Node extension host):
 * runs every suite under suites/ with mocha and rejects when any test fails.
 */
import 'mocha/mocha.js';
import * as vscode from 'vscode';
import { loadSuites } from 'council:integration-suites';
import { SCRIPTED_VENDOR } from './fixture/src/api';
import { fixture } from './harness';

/** Per-test limit; the runner's hard timeout covers a hung run as a whole. */
const TEST_TIMEOUT_MS = 30_000;

/**
 * Resolves once VS Code offers the scripted models. A chat request sent before the workbench knows them fails
 * with "Language model unavailable" before the participant runs (seen in code-server 1.139 about a second after its window loads).
 */
async function scriptedModelsReady(timeoutMs = 20_000): Promise<void> {
  await fixture();
  const deadline = Date.now() + timeoutMs;
  while ((await vscode.lm.selectChatModels({ vendor: SCRIPTED_VENDOR })).length === 0) {
    if (Date.now() > deadline)
      throw new Error(`The scripted ${SCRIPTED_VENDOR} models were not offered within ${timeoutMs} ms.`);
    await new Promise(resolve => setTimeout(resolve, 100));
  }
}

/** Runs the suites; VS Code reports a rejection as a failed run (non-zero exit). */
export async function run(): Promise<void> {
  // The browser build's Mocha class runs the same on the web and Node hosts (mocha.run() needs `location`).
  const MochaClass = (globalThis as unknown as { readonly Mocha: typeof Mocha }).Mocha;
  const mocha = new MochaClass({ ui: 'bdd', reporter: 'spec', color: false, timeout: TEST_TIMEOUT_MS });
  if (__INTEGRATION_GREP__) mocha.grep(__INTEGRATION_GREP__);
  mocha.suite.emit('pre-require', globalThis, 'council-integration', mocha);
  beforeEach(async () => (await fixture()).reset());
  loadSuites();
  await scriptedModelsReady();

  const { failures, passes, pending } = await new Promise<{ failures: number; passes: number; pending: number }>(
    resolve => {
      const runner = mocha.run(failed =>
        resolve({ failures: failed, passes: runner.stats?.passes ?? 0, pending: runner.stats?.pending ?? 0 }),
      );
    },
  );
  console.log(`${passes} passed, ${failures} failed${pending ? `, ${pending} pending` : ''}`);
  if (passes + failures === 0) throw new Error('No integration tests ran (check INTEGRATION_GREP).');
  if (failures > 0) throw new Error(`${failures} integration test(s) failed.`);
}

// mocha's UMD header, bundled as ESM, overwrites module.exports: put the entry point back after it ran.
module.exports = { run };
