/**
 * The Node extension host's entry (desktop VS Code): Council as on the web, except that workflow scripts run in a
 * worker thread (dist/node/scriptWorker.js), which the host terminates when a script overruns its CPU limit in a way
 * the engine's own interrupt cannot catch in time.
 */
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { activateCouncil, type CouncilApi } from '../extension';
import { nodeScriptSandbox } from './nodeScriptSandbox';

export { deactivate } from '../extension';
export type { CouncilApi } from '../extension';

export function activate(context: vscode.ExtensionContext): CouncilApi {
  return activateCouncil(
    context,
    nodeScriptSandbox(
      join(context.extensionPath, 'dist', 'node', 'scriptWorker.js'),
      join(context.extensionPath, 'dist', 'quickjs.wasm'),
    ),
  );
}
