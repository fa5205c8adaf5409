import * as vscode from 'vscode';

function isSafeRelative(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    !/^[A-Za-z]:/.test(path) &&
    !path.split(/[\\/]/).some(segment => segment === '..')
  );
}

/**
 * The Uri of a workspace-relative, "/"-separated path (with several folders, its first segment names the folder), or
 * undefined for a path that could leave the workspace (absolute, drive letter, `..`) or names no folder.
 */
export function resolveWorkspacePath(path: string): vscode.Uri | undefined {
  if (!isSafeRelative(path)) return undefined;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 1 && folders[0]) return vscode.Uri.joinPath(folders[0].uri, path);
  const [name, ...rest] = path.split('/');
  const folder = folders.find(f => f.name === name);
  return folder && rest.length > 0 ? vscode.Uri.joinPath(folder.uri, rest.join('/')) : undefined;
}

/** Workspace-relative path of `uri` under `folder`; with several folders, prefixed by the folder's name. */
export function relativeWorkspacePath(folder: vscode.WorkspaceFolder, uri: vscode.Uri, multiRoot: boolean): string {
  const base = folder.uri.path.replace(/\/$/, '');
  const inner = uri.path.startsWith(`${base}/`) ? uri.path.slice(base.length + 1) : uri.path;
  return multiRoot ? `${folder.name}/${inner}` : inner;
}
