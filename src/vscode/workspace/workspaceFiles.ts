import * as vscode from 'vscode';

/** True when `uri` exists; other file-system errors are thrown. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return false;
    throw error;
  }
}

/**
 * The names of the files in `directory` that `wanted` accepts, sorted; none when the folder does not exist.
 * Other errors are thrown.
 */
export async function fileNamesIn(directory: vscode.Uri, wanted: (name: string) => boolean): Promise<string[]> {
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(directory);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  return entries
    .filter(([name, type]) => wanted(name) && (type & vscode.FileType.File) !== 0)
    .map(([name]) => name)
    .sort();
}

/** A missing file or folder (or a file where a folder was expected): nothing to read. */
export function isNotFound(error: unknown): boolean {
  return (
    error instanceof vscode.FileSystemError && (error.code === 'FileNotFound' || error.code === 'FileNotADirectory')
  );
}

/**
 * What `read` finds in each workspace folder, folders in order. `multiRoot` says whether a workspace-relative path
 * needs the folder's name (`vscode.workspace.asRelativePath(uri, multiRoot)`).
 */
export async function inEveryWorkspaceFolder<T>(
  read: (folder: vscode.WorkspaceFolder, multiRoot: boolean) => Promise<readonly T[]>,
): Promise<T[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const perFolder = await Promise.all(folders.map(folder => read(folder, folders.length > 1)));
  return perFolder.flat();
}

/** The only workspace folder, or the one the user picks in a multi-root workspace (`placeHolder` asks which). */
export async function pickWorkspaceFolder(placeHolder: string): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0];
  return vscode.window.showWorkspaceFolderPick({ placeHolder });
}

/** Why a "create a file" command created nothing, shown to the user (not awaited: the message stays until dismissed). */
export function refusal<R extends string>(
  reason: R,
  message: string,
): { readonly refused: R; readonly message: string } {
  void vscode.window.showWarningMessage(message);
  return { refused: reason, message };
}

/**
 * The workspace folder a new file of `kind` (`persona`, `workflow`) goes to, in its `folderLabel` folder; or why it
 * goes nowhere: workspace files of that kind are not used in an untrusted workspace, or no folder is open.
 */
export async function folderForNewFile(
  kind: string,
  folderLabel: string,
): Promise<vscode.WorkspaceFolder | { readonly refused: 'untrusted' | 'noFolder'; readonly message: string }> {
  if (!vscode.workspace.isTrusted) {
    return refusal(
      'untrusted',
      `Council does not use workspace ${kind}s in an untrusted workspace. Trust the workspace to create a ${kind} in ${folderLabel}.`,
    );
  }
  const folder = await pickWorkspaceFolder(`Which folder's ${folderLabel} should hold the ${kind}?`);
  return folder ?? refusal('noFolder', `Open a folder first: workspace ${kind}s live in ${folderLabel} inside it.`);
}

/** The name a command was given (scripts, tests) or the user typed, or why there is none (cancelled, or not valid). */
export async function nameForNewFile(
  given: string | undefined,
  ask: () => Thenable<string | undefined>,
  invalid: (name: string) => string | undefined,
): Promise<string | { readonly refused: 'cancelled' } | { readonly refused: 'invalidName'; readonly message: string }> {
  const name = typeof given === 'string' ? given : await ask();
  if (name === undefined) return { refused: 'cancelled' };
  const problem = invalid(name);
  return problem ? refusal('invalidName', problem) : name;
}

const encoder = new TextEncoder();

/** Writes the new `file` in `directory` (creating the directory when needed) and opens it. */
export async function writeNewFile(
  directory: vscode.Uri,
  file: vscode.Uri,
  text: string,
): Promise<{ created: vscode.Uri }> {
  await vscode.workspace.fs.createDirectory(directory);
  await vscode.workspace.fs.writeFile(file, encoder.encode(text));
  await vscode.window.showTextDocument(file);
  return { created: file };
}
