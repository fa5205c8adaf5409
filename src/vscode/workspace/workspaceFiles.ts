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
