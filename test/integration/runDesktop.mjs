// Runs the SAME integration suite in desktop VS Code (Node extension host) via @vscode/test-electron.
// It downloads VS Code, so it needs internet access (not available on the offline CI machines: use runWeb.mjs there).
// Needs `npm run build` first (`npm run test:desktop` does both).
//   VSCODE_VERSION=stable|insiders|1.104.0 node test/integration/runDesktop.mjs
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const testsPath = join(root, 'dist/test/integration-node/index.js');
const fixtureDir = join(root, 'test/integration/fixture');
const fixtureId = 'council-test.council-test-fixture';

if (!existsSync(testsPath) || !existsSync(join(fixtureDir, 'dist/node.js'))) {
  console.error('runDesktop: the test bundles are missing: run `npm run build` first.');
  process.exit(2);
}

const profile = await mkdtemp(join(tmpdir(), 'council-vscode-desktop-'));
let code = 0;
try {
  await runTests({
    version: process.env.VSCODE_VERSION ?? 'stable',
    extensionDevelopmentPath: [root, fixtureDir],
    extensionTestsPath: testsPath,
    launchArgs: [
      '--disable-extensions', // only Council and the fixture: installed extensions would change what chat does
      `--enable-proposed-api=${fixtureId}`, // the fixture's default chat participant is a proposed API
      `--user-data-dir=${join(profile, 'user-data')}`,
      `--extensions-dir=${join(profile, 'extensions')}`,
      '--skip-welcome',
      '--skip-release-notes',
    ],
  });
} catch (error) {
  console.error(
    'runDesktop: the run failed (a test failed, or VS Code could not be downloaded):',
    error instanceof Error ? error.message : error,
  );
  code = 1;
} finally {
  await rm(profile, { recursive: true, force: true });
}
process.exit(code);
