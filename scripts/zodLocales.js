// Stands in for zod's locale index in Council's bundles (see esbuild.mjs): English only.
export { default as en } from 'zod/v4/locales/en.js';
