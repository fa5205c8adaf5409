// Packages the production build into council-<version>.vsix with vsce and prints its size, then the agent plugin.
// Run through `npm run package`, which builds the minified bundles first.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const vsix = `${name}-${version}.vsix`;

// Dependencies are bundled into dist/ by esbuild, so node_modules stays out of the package.
const vsce = spawnSync(join(root, 'node_modules/.bin/vsce'), ['package', '--no-dependencies', '--out', vsix], {
  cwd: root,
  stdio: 'inherit',
});
if (vsce.status !== 0) process.exit(vsce.status ?? 1);

const { size } = statSync(join(root, vsix));
console.log(`${vsix}: ${(size / 1024).toFixed(1)} KiB (${size} bytes)`);

// The agent plugin (council mcp + the council-protocol skill), beside the vsix: scripts/buildPlugin.mjs.
await import('./buildPlugin.mjs');
