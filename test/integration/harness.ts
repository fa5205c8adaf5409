import * as vscode from 'vscode';
import { SCRIPTED_VENDOR, type FixtureApi } from './fixture/src/api';

/** Council's extension id (`publisher.name` in package.json). */
export const COUNCIL_EXTENSION_ID = 'council-dev.council';

/** The test fixture extension's id (test/integration/fixture/package.json). */
export const FIXTURE_EXTENSION_ID = 'council-test.council-test-fixture';

/** The fixture's API, activating it first: scripts the `council-test` models and records their calls. */
export async function fixture(): Promise<FixtureApi> {
  const extension = vscode.extensions.getExtension<FixtureApi>(FIXTURE_EXTENSION_ID);
  if (!extension)
    throw new Error(
      `The test fixture extension ${FIXTURE_EXTENSION_ID} is not loaded; run the tests through runWeb.mjs or runDesktop.mjs.`,
    );
  return extension.activate();
}

/** Council itself, activated. */
export async function councilExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(COUNCIL_EXTENSION_ID);
  if (!extension) throw new Error(`${COUNCIL_EXTENSION_ID} is not loaded as the extension under development.`);
  await extension.activate();
  return extension;
}

/** Options for a chat turn sent through the real chat widget. */
export interface ChatTurnOptions {
  /** Which scripted model answers; defaults to the tool-calling one. */
  readonly modelId?: string;
}

/**
 * Sends `query` (e.g. `@council hello`) through the real chat view, with a scripted model picked,
 * and resolves with the participant's `ChatResult` once the response is complete.
 */
export async function sendChat(query: string, options: ChatTurnOptions = {}): Promise<vscode.ChatResult> {
  const modelSelector = options.modelId
    ? { vendor: SCRIPTED_VENDOR, id: options.modelId }
    : { vendor: SCRIPTED_VENDOR };
  const result = await vscode.commands.executeCommand<vscode.ChatResult | undefined>('workbench.action.chat.open', {
    query,
    isPartialQuery: false,
    modelSelector,
    blockOnResponse: true,
  });
  if (!result) throw new Error(`The chat view returned no result for ${JSON.stringify(query)}.`);
  return result;
}

/** Starts a fresh chat session, so the next turn carries no history. */
export async function newChat(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
}

/** Collects a model response's stream (text and tool-call parts) into an array. */
export async function collectStream(response: vscode.LanguageModelChatResponse): Promise<readonly unknown[]> {
  const parts: unknown[] = [];
  for await (const part of response.stream) parts.push(part);
  return parts;
}

/** Sets `council.*` settings (or another `section`'s) globally for a test; the returned function restores them. */
export async function configure(values: Record<string, unknown>, section = 'council'): Promise<() => Promise<void>> {
  const config = vscode.workspace.getConfiguration(section);
  const previous = Object.keys(values).map(key => [key, config.inspect(key)?.globalValue] as const);
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
  return async () => {
    for (const [key, value] of previous)
      await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
  };
}

/** A file of the test workspace (its first folder), by its workspace-relative path. */
export function workspaceUri(path: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('The integration tests need a workspace folder open.');
  return vscode.Uri.joinPath(folder.uri, ...path.split('/'));
}

/** Writes a file of the test workspace (text or bytes); returns its Uri. */
export async function writeWorkspaceFile(path: string, content: Uint8Array | string): Promise<vscode.Uri> {
  const uri = workspaceUri(path);
  await vscode.workspace.fs.writeFile(uri, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  return uri;
}

/** A file of the test workspace as text. */
export async function readWorkspaceFile(path: string): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri(path)));
}
