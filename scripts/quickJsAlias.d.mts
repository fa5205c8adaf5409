/** The folder of quickjs-emscripten's wasm-file variant (holds emscripten-module.wasm). */
export declare const quickJsDist: string;
/** esbuild's `alias` option for the engine loader. */
export declare const quickJsAlias: Readonly<Record<string, string>>;
