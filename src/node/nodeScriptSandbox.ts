import { Worker } from 'node:worker_threads';
import { WorkerSandbox, type ScriptWorker } from '../core/workflow/sandbox/workerSandbox';
import type { FromScriptWorker } from '../core/workflow/sandbox/scriptWorker';

/**
 * The script sandbox of the Node extension host: QuickJS in a worker thread (`workerFile`, which reads the engine
 * from `wasmPath`), so a script the engine cannot interrupt in time is stopped by terminating the thread.
 */
export function nodeScriptSandbox(workerFile: string, wasmPath: string): WorkerSandbox {
  return new WorkerSandbox((): ScriptWorker => {
    const worker = new Worker(workerFile, { workerData: { wasmPath } });
    // The worker is a helper: it must never keep the extension host (or a test process) alive on its own. Adding a
    // 'message' listener refs the worker's port again, so it is unref'd after that.
    worker.unref();
    return {
      post: message => worker.postMessage(message),
      onMessage: handler => {
        worker.on('message', (message: FromScriptWorker) => handler(message));
        worker.unref();
      },
      terminate: () => void worker.terminate(),
      onExit: handler => {
        worker.on('error', error => handler(error.message));
        worker.on('exit', code => handler(`exit code ${code}`));
      },
    };
  });
}
