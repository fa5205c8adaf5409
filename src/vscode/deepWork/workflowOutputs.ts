import * as vscode from 'vscode';
import { ActionableError } from '../../core/actionableError';
import { outputPath, type RunOutputs } from '../../core/workflow/engine/runOutputs';
import { isNotFound } from '../workspace/workspaceFiles';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/**
 * A run's files in the workspace: `folder` (e.g. `.council/workflow-runs/run-…`) is relative to the first workspace folder
 * (or the one given). Every path goes through `outputPath`, which refuses anything outside the run folder
 * (`../x`, absolute paths, backslashes) before a byte is written.
 */
export class WorkspaceRunOutputs implements RunOutputs {
  private readonly root: vscode.Uri;

  /** Throws an ActionableError when no folder is open: a run has nowhere to write. */
  constructor(
    readonly folder: string,
    workspaceFolder: vscode.WorkspaceFolder | undefined = vscode.workspace.workspaceFolders?.[0],
  ) {
    if (!workspaceFolder)
      throw new ActionableError(`Open a folder first: workflow runs write their files to ${folder} inside it.`);
    this.root = workspaceFolder.uri;
  }

  async write(relativePath: string, content: string): Promise<{ path: string; sizeBytes: number }> {
    const path = outputPath(this.folder, relativePath);
    const segments = path.split('/');
    await this.refuseLinks(path, segments);
    const bytes = encoder.encode(content);
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.root, ...segments.slice(0, -1)));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.root, ...segments), bytes);
    return { path, sizeBytes: bytes.length };
  }

  /**
   * The real path must stay in the workspace: `workspace.fs` follows symbolic links, so a `.council/runs` (or any
   * folder or file on the way) that is a link could send the write anywhere. Each existing part of the path is
   * checked, from the workspace folder down, before a byte is written.
   */
  private async refuseLinks(path: string, segments: readonly string[]): Promise<void> {
    for (let end = 1; end <= segments.length; end++) {
      let type: vscode.FileType;
      try {
        type = (await vscode.workspace.fs.stat(vscode.Uri.joinPath(this.root, ...segments.slice(0, end)))).type;
      } catch {
        return; // The rest does not exist yet: it is created here, as real folders.
      }
      if (type & vscode.FileType.SymbolicLink)
        throw new ActionableError(
          `Refused to write \`${path}\`: \`${segments.slice(0, end).join('/')}\` is a symbolic link, and a run writes only to real folders inside the workspace. Replace the link with a folder, then resume the run.`,
        );
    }
  }

  async read(relativePath: string): Promise<string | undefined> {
    const uri = vscode.Uri.joinPath(this.root, ...outputPath(this.folder, relativePath).split('/'));
    try {
      return decoder.decode(await vscode.workspace.fs.readFile(uri));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}
