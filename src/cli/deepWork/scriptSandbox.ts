import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { QuickJsSandbox } from '../../core/workflow/sandbox/quickJsSandbox';
import type { ScriptSandbox } from '../../core/workflow/sandbox/scriptSandbox';

/**
 * The workflow scripts' sandbox for the `council` command: the same QuickJS engine as the extension
 * (`dist/quickjs.wasm` of the package), in this process (its CPU, memory and stack limits hold; there is no worker to
 * terminate, so a host call that never settles is bounded only by the run's cancellation). A package without the
 * engine file fails each script with a message saying so.
 */
export function cliScriptSandbox(root: string): ScriptSandbox {
  const wasm = join(root, 'dist', 'quickjs.wasm');
  return new QuickJsSandbox(async () => {
    try {
      return new Uint8Array(await readFile(wasm));
    } catch (error) {
      throw new Error(
        `Workflow scripts need the QuickJS engine at ${wasm}, which cannot be read (${error instanceof Error ? error.message : String(error)}). Build the package (node esbuild.mjs) or reinstall it.`,
      );
    }
  });
}
