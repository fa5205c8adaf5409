import * as vscode from 'vscode';
import { parseWorkflow } from '../../core/workflow/definition/parseWorkflow';
import type { WorkflowSource } from '../../core/workflow/definition/workflowDefinition';
import { BUILT_IN_WORKFLOW_FILES, BUILT_IN_WORKFLOW_FOLDER } from './builtInWorkflowFiles';
import { buildWorkflowCatalog, type WorkflowCatalog, type WorkflowFileRead } from './buildWorkflowCatalog';
import { fileNamesIn, inEveryWorkspaceFolder } from '../workspace/workspaceFiles';

/** Where a workspace keeps its workflow files, relative to each workspace folder. */
export const WORKSPACE_WORKFLOW_FOLDER = ['.council', 'workflows'] as const;

/** File names a workspace workflow may have. */
const WORKFLOW_FILE = /\.ya?ml$/;

const decoder = new TextDecoder('utf-8');

/** The workflow folder of a workspace folder. */
export function workspaceWorkflowFolder(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, ...WORKSPACE_WORKFLOW_FOLDER);
}

/**
 * Loads the workflows a run may use: the extension's built-ins (`workflows/*.yaml`), then, only in a trusted
 * workspace, every `.council/workflows/*.yaml` and `*.yml` of each workspace folder. A workspace workflow overrides
 * the built-in of the same name (its source says so: `overrides`); a file that cannot be read or parsed is in
 * `problems` and the others still load. Files are read afresh on every call (built-ins only once), so an edited
 * workflow is used by the next run.
 */
export async function loadWorkflows(
  extensionUri: vscode.Uri,
  knownTypes: ReadonlySet<string>,
): Promise<WorkflowCatalog> {
  const [builtIn, workspace] = await Promise.all([
    readBuiltInWorkflows(extensionUri),
    vscode.workspace.isTrusted ? readWorkspaceWorkflows() : [],
  ]);
  return buildWorkflowCatalog(builtIn, workspace, (text, source) => parseWorkflow(text, source, { knownTypes }));
}

/** Built-in files only change with the extension, and reading one costs ~1 s over http on the web: read once. */
const builtInTexts = new Map<string, Promise<string>>();

function readBuiltInWorkflows(extensionUri: vscode.Uri): Promise<WorkflowFileRead[]> {
  return Promise.all(
    BUILT_IN_WORKFLOW_FILES.map(async (file): Promise<WorkflowFileRead> => {
      const source: WorkflowSource = { kind: 'built-in', path: `built-in ${BUILT_IN_WORKFLOW_FOLDER}/${file}` };
      const uri = vscode.Uri.joinPath(extensionUri, BUILT_IN_WORKFLOW_FOLDER, file);
      const key = uri.toString();
      let text = builtInTexts.get(key);
      if (!text) {
        text = Promise.resolve(vscode.workspace.fs.readFile(uri)).then(bytes => decoder.decode(bytes));
        builtInTexts.set(key, text);
        // A failed read is not kept, so the next load tries again.
        text.catch(() => builtInTexts.delete(key));
      }
      try {
        return { source, text: await text };
      } catch (error) {
        return { source, readError: errorMessage(error) };
      }
    }),
  );
}

/** Every workspace folder's workflow files; paths workspace-relative (prefixed with the folder's name when multi-root). */
async function readWorkspaceWorkflows(): Promise<WorkflowFileRead[]> {
  return inEveryWorkspaceFolder(workflowFilesIn);
}

async function workflowFilesIn(folder: vscode.WorkspaceFolder, multiRoot: boolean): Promise<WorkflowFileRead[]> {
  const directory = workspaceWorkflowFolder(folder);
  let names: string[];
  try {
    names = await fileNamesIn(directory, name => WORKFLOW_FILE.test(name));
  } catch (error) {
    return [
      {
        source: { kind: 'workspace', path: vscode.workspace.asRelativePath(directory, multiRoot) },
        readError: `the folder could not be listed: ${errorMessage(error)}`,
      },
    ];
  }
  return Promise.all(
    names.map(async (name): Promise<WorkflowFileRead> => {
      const uri = vscode.Uri.joinPath(directory, name);
      const source: WorkflowSource = { kind: 'workspace', path: vscode.workspace.asRelativePath(uri, multiRoot) };
      try {
        return { source, text: decoder.decode(await vscode.workspace.fs.readFile(uri)) };
      } catch (error) {
        return { source, readError: errorMessage(error) };
      }
    }),
  );
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
