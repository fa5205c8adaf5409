import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './nodePersonaSource';

/** The QuickJS engine the sandbox runs (the same file esbuild copies to `dist/quickjs.wasm`). */
export const QUICKJS_WASM_PATH = join(
  REPO_ROOT,
  'node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm',
);

/** A `loadWasm` for `QuickJsSandbox` in Node tests: reads the engine from node_modules. */
export async function loadQuickJsWasm(): Promise<Uint8Array> {
  return new Uint8Array(readFileSync(QUICKJS_WASM_PATH));
}
