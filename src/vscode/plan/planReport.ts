import * as vscode from 'vscode';
import { pipelineReportFiles } from '../../core/plan/run/report';
import type { WorkflowMetadata } from '../../core/workflow/engine/workflowMetadata';
import type { WorkflowRunState } from '../../core/workflow/engine/workflowRunState';

/**
 * Writes the run's Markdown report (`pipelineReportFiles`) under `.council/runs/<run-id>/` of the first workspace
 * folder, replacing earlier copies of the same run's files; nothing else in the workspace is touched.
 * Returns the written files' Uris.
 */
export async function writeRunReport(state: WorkflowRunState, metadata: WorkflowMetadata): Promise<vscode.Uri[]> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return [];
  const written: vscode.Uri[] = [];
  for (const file of pipelineReportFiles(state, metadata)) {
    const uri = vscode.Uri.joinPath(folder.uri, file.path);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(file.content));
    written.push(uri);
  }
  return written;
}
