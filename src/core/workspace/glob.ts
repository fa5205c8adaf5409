import picomatch from 'picomatch/posix';

/**
 * A RegExp for a workspace glob as a model or a user writes it (`src/**\/*.ts`, `*.{md,json}`, `f[0-9].ts`):
 * picomatch's reading, so `a,b` is a name and `[0-9]` a class. Paths are `/`-separated on every host (hence the
 * posix build, which also keeps Node's `path` out of the web bundle); dot files match like any other file.
 */
export function globToRegExp(glob: string): RegExp {
  return picomatch.makeRe(glob, { dot: true });
}
