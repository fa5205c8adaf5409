import * as vscode from 'vscode';
import { pipelineReportFiles, runFolder } from '../../core/plan/run/report';
import type { WorkflowMetadata } from '../../core/workflow/engine/workflowMetadata';
import type { WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import { WorkspaceRunOutputs } from './workflowOutputs';

/**
 * Writes the run's Markdown report (`pipelineReportFiles`) under `.council/runs/<run-id>/` of the first workspace
 * folder, replacing earlier copies of the same run's files, through the run's outputs (so a symbolic link on the way
 * is refused as for every other file of the run). Returns the written files' Uris.
 */
export async function writeRunReport(state: WorkflowRunState, metadata: WorkflowMetadata): Promise<vscode.Uri[]> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return [];
  const outputs = new WorkspaceRunOutputs(runFolder(state.runId), folder);
  const written: vscode.Uri[] = [];
  for (const file of pipelineReportFiles(state, metadata)) {
    const { path } = await outputs.write(file.path, file.content);
    written.push(vscode.Uri.joinPath(folder.uri, ...path.split('/')));
  }
  return written;
}
