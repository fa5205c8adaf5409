import * as vscode from 'vscode';

/** Where esbuild puts the QuickJS WebAssembly module, relative to the extension's root. */
const SANDBOX_WASM_PATH = ['dist', 'quickjs.wasm'] as const;

/**
 * A loader for the script sandbox's WebAssembly module (`dist/quickjs.wasm`), read with `vscode.workspace.fs`
 * so it works in the web extension host too (extension files come over http there). The bytes are read on the
 * first call and kept; a failed read is not kept, so the next call tries again.
 */
export function loadSandboxWasm(extensionUri: vscode.Uri): () => Promise<Uint8Array> {
  let bytes: Promise<Uint8Array> | undefined;
  return () => {
    if (!bytes) {
      bytes = Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, ...SANDBOX_WASM_PATH)));
      // Only a failed read clears it, and nothing else can have replaced it by then.
      bytes.catch(() => (bytes = undefined));
    }
    return bytes;
  };
}
