/** Folders never shown to agents: dependencies, VCS data and build output. */
export const IGNORED_SEGMENTS: readonly string[] = ['node_modules', '.git', 'dist', 'out'];

/** True when any segment of `path` is an ignored folder. */
export function isIgnoredPath(path: string): boolean {
  return path.split('/').some(segment => IGNORED_SEGMENTS.includes(segment));
}

/** Extensions of files that are binary whatever their content looks like. */
const BINARY_EXTENSIONS =
  /\.(png|jpe?g|gif|ico|webp|bmp|pdf|zip|gz|tgz|vsix|wasm|woff2?|ttf|eot|mp[34]|mov|exe|dll|so|dylib|class|jar|bin)$/i;

/** True for files whose name or content says binary (a NUL byte in the first 8 KB, as git decides). */
export function looksBinary(path: string, text?: string): boolean {
  if (BINARY_EXTENSIONS.test(path)) return true;
  return text !== undefined && text.slice(0, 8192).includes('\u0000');
}
