// Builds Council for both extension hosts, plus the integration test bundles and the test fixture.
//   node esbuild.mjs               all bundles, with source maps
//   node esbuild.mjs --production  the two product bundles only, minified (what `npm run package` ships)
//   node esbuild.mjs --watch       all bundles, rebuilt on change
// INTEGRATION_GREP=<text> limits the integration suite to matching tests (baked into its bundle).
import * as esbuild from 'esbuild';
import { quickJsAlias, quickJsDist } from './scripts/quickJsAlias.mjs';
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const suitesDir = join(root, 'test/integration/suites');

/** Options every bundle shares: one CommonJS file per host, `vscode` provided by the host. */
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  external: ['vscode'],
  sourcemap: true,
  minify: production,
  jsxFactory: 'vscpp',
  jsxFragment: 'vscppf',
  loader: { '.md': 'text' }, // lets persona contracts be bundled as text if imported
  metafile: true,
  logLevel: 'warning',
  // The script sandbox's engine loader: see scripts/quickJsAlias.mjs.
  alias: quickJsAlias,
};
/**
 * prompt-tsx's HTMLTracer, a debugging aid nothing here uses, lazily requires 'http'. Only that one
 * require is left external (it would throw if ever called on the web); any other Node import still fails.
 */
const promptTsxTracerHttp = {
  name: 'prompt-tsx-tracer-http',
  setup(build) {
    build.onResolve({ filter: /^http$/ }, args =>
      /@vscode[\\/]prompt-tsx[\\/].*htmlTracer\.js$/.test(args.importer) ? { path: 'http', external: true } : undefined,
    );
  },
};
/** The web worker extension host has no Node: anything that needs a built-in fails to resolve here. */
/**
 * zod's classic API re-exports every locale (~250 KiB minified) as `z.locales`; Council only ever shows
 * English messages, so the locale index resolves to English alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, args =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: join(root, 'scripts/zodLocales.js') } : undefined,
    );
  },
};

const browser = { platform: 'browser', target: 'es2022', plugins: [promptTsxTracerHttp, zodEnglishOnly] };
const node = { platform: 'node', target: 'node20', plugins: [zodEnglishOnly] };

/** `import { loadSuites } from 'council:integration-suites'` requires every suite, sorted. */
const integrationSuites = {
  name: 'integration-suites',
  setup(build) {
    build.onResolve({ filter: /^council:integration-suites$/ }, () => ({
      path: 'suites',
      namespace: 'integration-suites',
    }));
    build.onLoad({ filter: /.*/, namespace: 'integration-suites' }, async () => {
      const files = (await readdir(suitesDir, { recursive: true })).filter(file => file.endsWith('.test.ts')).sort();
      const requires = files.map(file => `  require(${JSON.stringify(`./${file.split('\\').join('/')}`)});`);
      return {
        contents: `export function loadSuites() {\n${requires.join('\n')}\n}\n`,
        resolveDir: suitesDir,
        loader: 'js',
        watchDirs: [suitesDir],
      };
    });
  },
};

/** Test bundles: suites are discovered, mocha's UMD wrapper writing `module` is expected. */
const testEntry = {
  suites: true,
  define: {
    __INTEGRATION_GREP__: JSON.stringify(process.env.INTEGRATION_GREP ?? ''),
    __COUNCIL_EVAL__: JSON.stringify(process.env.COUNCIL_EVAL === '1'),
  },
  logOverride: { 'commonjs-variable-in-esm': 'silent' },
};

const productBundles = [
  // The Node host runs workflow scripts in a worker thread it can terminate (src/node/scriptWorker.ts).
  {
    ...common,
    ...node,
    entryPoints: { extension: 'src/node/extension.ts', scriptWorker: 'src/node/scriptWorker.ts' },
    outdir: 'dist/node',
  },
  { ...common, ...browser, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist/web' },
];
/** The `council` command (src/cli): Council in a terminal, over the same core; not part of the extension. */
const cliBundle = {
  ...common,
  ...node,
  // prompt-tsx requires `vscode` only inside functions the core never calls; left external, it is never loaded.
  entryPoints: { council: 'src/cli/council.ts' },
  // @github/copilot-sdk loads koffi (a native FFI module) only for its in-process runtime, which Council never uses:
  // it starts the user's Copilot CLI instead. Left external, the bundle carries no native code.
  external: [...common.external, 'koffi'],
  outdir: 'dist/cli',
  banner: { js: '#!/usr/bin/env node' },
};
const testBundles = [
  {
    ...common,
    ...browser,
    ...testEntry,
    entryPoints: { index: 'test/integration/index.ts' },
    outdir: 'dist/test/integration',
  },
  {
    ...common,
    ...node,
    ...testEntry,
    entryPoints: { index: 'test/integration/index.ts' },
    outdir: 'dist/test/integration-node',
  },
  {
    ...common,
    ...browser,
    entryPoints: { web: 'test/integration/fixture/src/extension.ts' },
    outdir: 'test/integration/fixture/dist',
  },
  {
    ...common,
    ...node,
    entryPoints: { node: 'test/integration/fixture/src/extension.ts' },
    outdir: 'test/integration/fixture/dist',
  },
];
const bundles = production ? [...productBundles, cliBundle] : [...productBundles, cliBundle, ...testBundles];

/** Prints each output bundle's size after every (re)build. */
const reportSizes = {
  name: 'report-sizes',
  setup(build) {
    build.onEnd(async result => {
      for (const output of Object.keys(result.metafile?.outputs ?? {}).filter(file => file.endsWith('.js'))) {
        const { size } = await stat(join(root, output));
        console.log(`${relative(root, join(root, output)).padEnd(44)} ${(size / 1024).toFixed(1).padStart(8)} KiB`);
      }
    });
  },
};

const withReport = bundles.map(({ suites, ...options }) => ({
  ...options,
  plugins: [...(options.plugins ?? []), ...(suites ? [integrationSuites] : []), reportSizes],
}));

/** Both product builds read the sandbox's engine from this one file of the extension. */
async function copyQuickJsWasm() {
  await mkdir(join(root, 'dist'), { recursive: true });
  await copyFile(join(quickJsDist, 'emscripten-module.wasm'), join(root, 'dist/quickjs.wasm'));
}

if (watch) {
  await copyQuickJsWasm();
  const contexts = await Promise.all(withReport.map(options => esbuild.context(options)));
  await Promise.all(contexts.map(context => context.watch()));
  console.log('watching for changes...');
} else {
  const started = Date.now();
  await Promise.all([copyQuickJsWasm(), ...withReport.map(options => esbuild.build(options))]);
  console.log(`built ${withReport.length} bundles${production ? ' (production)' : ''} in ${Date.now() - started} ms`);
}
