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

function isNotFound(error: unknown): boolean {
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
