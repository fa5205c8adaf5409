// The script sandbox's QuickJS engine loader, as every bundle takes it (esbuild.mjs, and tests that bundle the
// script worker): the loader for browsers, in both hosts. The wasm always comes from the host (dist/quickjs.wasm), so
// the loader never fetches or reads a file and the bundle has no Node import for it. (The Node build of the loader
// calls createRequire(import.meta.url), which a CommonJS bundle leaves empty.)
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The folder of quickjs-emscripten's wasm-file variant (holds emscripten-module.wasm). */
export const quickJsDist = dirname(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm'));

/** esbuild's `alias` option for the engine loader. */
export const quickJsAlias = {
  '@jitl/quickjs-wasmfile-release-sync/emscripten-module': join(quickJsDist, 'emscripten-module.browser.mjs'),
};
