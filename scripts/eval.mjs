#!/usr/bin/env node
// npm run eval: every fixed decision (src/core/council/eval/decisions.ts) answered by the council (council_deliberate) and by a
// single prompt to the same model, through the real VS Code LM API in the web build, written side by side to
// .cache/eval/report.md for a person to judge. Here the model is the test fixture's scripted one, which proves the
// plumbing; with a real model registered in VS Code it is the product's quality check.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MARKER = 'COUNCIL-EVAL-REPORT:';
const env = { ...process.env, COUNCIL_EVAL: '1', INTEGRATION_GREP: 'eval: the council against a single prompt' };

const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, env, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const run = spawn(process.execPath, ['test/integration/runWeb.mjs'], { cwd: root, env });
let report;
let pending = '';
run.stdout.on('data', chunk => {
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    const at = line.indexOf(MARKER);
    if (at >= 0) report = Buffer.from(line.slice(at + MARKER.length).trim(), 'base64').toString('utf8');
    else process.stdout.write(`${line}\n`);
  }
});
run.stderr.pipe(process.stderr);
run.on('close', code => {
  if (!report) {
    console.error(`eval: no report in the test output (exit ${code}).`);
    process.exit(code || 1);
  }
  const file = join(root, '.cache', 'eval', 'report.md');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, report);
  console.log(`eval: wrote ${file}`);
  process.exit(code ?? 0);
});
