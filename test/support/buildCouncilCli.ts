import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { quickJsAlias } from '../../scripts/quickJsAlias.mjs';
import { REPO_ROOT } from './nodePersonaSource';

/** Where esbuild.mjs puts the `council` command. */
export const COUNCIL_BUNDLE = join(REPO_ROOT, 'dist', 'cli', 'council.js');

/** Bundles the `council` command as esbuild.mjs does (unminified), for tests that run the built command. */
export function buildCouncilCli(): void {
  buildSync({
    absWorkingDir: REPO_ROOT,
    entryPoints: ['src/cli/council.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // The workflow scripts' engine loader, as esbuild.mjs takes it.
    alias: quickJsAlias,
    banner: { js: '#!/usr/bin/env node' },
    outfile: COUNCIL_BUNDLE,
    logLevel: 'error',
  });
}
