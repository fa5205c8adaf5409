import * as vscode from 'vscode';

/* What `/plan` and `/workflow` answer alike, each in its own words and metadata. */

/** Why a run cannot start here (an untrusted workspace, no folder open), in the handler's words; undefined when it can. */
export function workspaceRefusal(words: { readonly untrusted: string; readonly noFolder: string }): string | undefined {
  if (!vscode.workspace.isTrusted) return words.untrusted;
  if (!vscode.workspace.workspaceFolders?.length) return words.noFolder;
  return undefined;
}
