import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { quickJsAlias } from '../../scripts/quickJsAlias.mjs';
import { REPO_ROOT } from './nodePersonaSource';
import { QUICKJS_WASM_PATH } from './quickJsWasm';

/** Where esbuild.mjs puts the `council` command. */
export const COUNCIL_BUNDLE = join(REPO_ROOT, 'dist', 'cli', 'council.js');

/** Bundles the `council` command as esbuild.mjs does (unminified, with the scripts' engine), for tests that run the built command. */
export function buildCouncilCli(): void {
  buildSync({
    absWorkingDir: REPO_ROOT,
    entryPoints: ['src/cli/council.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // koffi: as esbuild.mjs leaves it (the Copilot SDK's in-process runtime, never used).
    external: ['vscode', 'koffi'],
    // The workflow scripts' engine loader, as esbuild.mjs takes it.
    alias: quickJsAlias,
    banner: { js: '#!/usr/bin/env node' },
    outfile: COUNCIL_BUNDLE,
    logLevel: 'error',
  });
  // The workflow scripts' engine, where esbuild.mjs copies it (the command reads it from the package).
  mkdirSync(join(REPO_ROOT, 'dist'), { recursive: true });
  copyFileSync(QUICKJS_WASM_PATH, join(REPO_ROOT, 'dist', 'quickjs.wasm'));
}
