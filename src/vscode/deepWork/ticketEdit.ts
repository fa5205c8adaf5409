import * as vscode from 'vscode';
import type { ProposedChange } from '../../core/plan/schemas/tickets';
import { applyLineReplacements, StaleProposalError } from '../../core/deepWork/lineReplacements';
import { resolveWorkspacePath } from '../workspace/workspacePaths';

/**
 * A WorkspaceEdit making a ticket's proposed changes (create, modify, delete), built against the files' current
 * content (open editors included). Building changes nothing; throws StaleProposalError for a path outside the
 * workspace or a range edit that no longer fits.
 */
export async function ticketWorkspaceEdit(changes: readonly ProposedChange[]): Promise<vscode.WorkspaceEdit> {
  const edit = new vscode.WorkspaceEdit();
  for (const change of changes) {
    const uri = resolveWorkspacePath(change.path);
    if (!uri) throw new StaleProposalError(`${change.path} is not a path inside the workspace`);
    switch (change.kind) {
      case 'create':
        edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(change.content) });
        break;
      case 'delete':
        edit.deleteFile(uri, { ignoreIfNotExists: false });
        break;
      case 'modify': {
        let document: vscode.TextDocument;
        try {
          document = await vscode.workspace.openTextDocument(uri);
        } catch {
          throw new StaleProposalError(`${change.path} cannot be opened to modify it`);
        }
        const text = document.getText();
        const next =
          change.edit.mode === 'full_content'
            ? change.edit.content
            : applyLineReplacements(change.path, text, change.edit.replacements);
        edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(text.length)), next);
        break;
      }
    }
  }
  return edit;
}
