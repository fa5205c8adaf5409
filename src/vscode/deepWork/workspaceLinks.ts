import * as vscode from 'vscode';
import type { IsSymbolicLink } from '../../core/plan/writablePath';
import { resolveWorkspacePath } from '../workspace/workspacePaths';

/**
 * Whether a workspace-relative path is a symbolic link now, by `workspace.fs.stat`: its type has the SymbolicLink bit
 * for a link (a dangling one too), whatever it points to. A path that does not exist, or names no file (a multi-root
 * workspace's folder name alone), is no link. `resolve` maps the path to its Uri (tests pass another file system's).
 */
export function workspaceSymbolicLinks(
  resolve: (path: string) => vscode.Uri | undefined = resolveWorkspacePath,
): IsSymbolicLink {
  return async prefix => {
    const uri = resolve(prefix);
    if (!uri) return false;
    try {
      return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.SymbolicLink) !== 0;
    } catch {
      return false; // Not there yet: Apply creates a real folder or file.
    }
  };
}
