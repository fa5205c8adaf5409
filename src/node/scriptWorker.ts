/**
 * The script worker of the Node extension host (`dist/node/scriptWorker.js`): runs workflow scripts in QuickJS off
 * the extension host's thread, so the host can terminate a runaway script (see WorkerSandbox).
 */
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { QuickJsSandbox } from '../core/workflow/sandbox/quickJsSandbox';
import { serveScripts, type FromScriptWorker, type ToScriptWorker } from '../core/workflow/sandbox/scriptWorker';

const { wasmPath } = workerData as { readonly wasmPath: string };
const port = parentPort;
if (port) {
  serveScripts(
    {
      post: (message: FromScriptWorker) => port.postMessage(message),
      onMessage: handler => port.on('message', (message: ToScriptWorker) => handler(message)),
    },
    new QuickJsSandbox(async () => new Uint8Array(await readFile(wasmPath))),
  );
}
