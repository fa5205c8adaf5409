import * as vscode from 'vscode';
import { decodeUtf8 } from '../../core/textEncoding';
import { MAX_WORKFLOW_CHARS, parseWorkflow } from '../../core/workflow/definition/parseWorkflow';
import type { WorkflowParse, WorkflowSource } from '../../core/workflow/definition/workflowDefinition';
import { BUILT_IN_WORKFLOW_FILES, BUILT_IN_WORKFLOW_FOLDER } from './builtInWorkflowFiles';
import {
  buildWorkflowCatalog,
  type WorkflowCatalog,
  type WorkflowFileRead,
} from '../../core/deepWork/buildWorkflowCatalog';
import { isReadOnlyTool } from './skillToolRules';
import { fileNamesIn, inEveryWorkspaceFolder } from '../workspace/workspaceFiles';

/** Where a workspace keeps its workflow files, relative to each workspace folder. */
export const WORKSPACE_WORKFLOW_FOLDER = ['.council', 'workflows'] as const;

/** File names a workspace workflow may have. */
const WORKFLOW_FILE = /\.ya?ml$/;

/** A workflow file's text, or why it cannot be used (not UTF-8: which encoding it is). */
function decoded(bytes: Uint8Array): string {
  const result = decodeUtf8(bytes, 'it');
  if (!result.ok) throw new Error(result.message);
  return result.text;
}

/**
 * Parses by content: a file is parsed again only when its text changed (a 5 MB file took 5 s to parse, and the
 * catalogue is read on every `/workflow` and `/plan` request). Bounded, so edits do not grow it forever.
 */
const parsedTexts = new Map<string, WorkflowParse>();
const MAX_PARSED_TEXTS = 64;

/** Workflow files read from one folder (a workspace has a handful; thousands would be read on every request). */
const MAX_WORKFLOW_FILES = 50;

function parseOnce(
  text: string,
  source: WorkflowSource,
  knownTypes: ReadonlySet<string>,
  knownTools: ReadonlySet<string>,
): WorkflowParse {
  const key = [source.kind, source.path, [...knownTypes].join(','), [...knownTools].join(','), text].join('\0');
  const known = parsedTexts.get(key);
  if (known) return known;
  const parsed = parseWorkflow(text, source, { knownTypes, knownTools });
  if (parsedTexts.size >= MAX_PARSED_TEXTS) parsedTexts.clear();
  parsedTexts.set(key, parsed);
  return parsed;
}

/** The workflow folder of a workspace folder. */
export function workspaceWorkflowFolder(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, ...WORKSPACE_WORKFLOW_FOLDER);
}

/**
 * Loads the workflows a run may use: the extension's built-ins (`workflows/*.yaml`), then, only in a trusted
 * workspace, every `.council/workflows/*.yaml` and `*.yml` of each workspace folder. A workspace workflow overrides
 * the built-in of the same name (its source says so: `overrides`); a file that cannot be read or parsed is in
 * `problems` and the others still load. Files are read afresh on every call (built-ins only once) and parsed again
 * only when their text changed, so an edited workflow is used by the next run.
 */
export async function loadWorkflows(
  extensionUri: vscode.Uri,
  knownTypes: ReadonlySet<string>,
): Promise<WorkflowCatalog> {
  const [builtIn, workspace] = await Promise.all([
    readBuiltInWorkflows(extensionUri),
    vscode.workspace.isTrusted ? inEveryWorkspaceFolder(workflowFilesIn) : [],
  ]);
  // Skills may name read-only tools: checked when the file loads, not when a run reaches the skill.
  const knownTools = new Set(vscode.lm.tools.filter(isReadOnlyTool).map(tool => tool.name));
  return buildWorkflowCatalog(builtIn, workspace, (text, source) => parseOnce(text, source, knownTypes, knownTools));
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
        text = Promise.resolve(vscode.workspace.fs.readFile(uri)).then(decoded);
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

/** A workspace folder's workflow files; paths workspace-relative (prefixed with the folder's name when multi-root). */
async function workflowFilesIn(folder: vscode.WorkspaceFolder, multiRoot: boolean): Promise<WorkflowFileRead[]> {
  const directory = workspaceWorkflowFolder(folder);
  const folderSource: WorkflowSource = {
    kind: 'workspace',
    path: vscode.workspace.asRelativePath(directory, multiRoot),
  };
  let names: string[];
  try {
    names = await fileNamesIn(directory, name => WORKFLOW_FILE.test(name));
  } catch (error) {
    return [{ source: folderSource, readError: `the folder could not be listed: ${errorMessage(error)}` }];
  }
  const read = await Promise.all(
    names.slice(0, MAX_WORKFLOW_FILES).map(async (name): Promise<WorkflowFileRead> => {
      const uri = vscode.Uri.joinPath(directory, name);
      const source: WorkflowSource = { kind: 'workspace', path: vscode.workspace.asRelativePath(uri, multiRoot) };
      try {
        // A huge file is refused from its size, before it is read or parsed.
        const { size } = await vscode.workspace.fs.stat(uri);
        if (size > MAX_WORKFLOW_CHARS * 4)
          return {
            source,
            readError: `it has ${Math.round(size / 1024 / 1024)} MB; a workflow file may have at most ${MAX_WORKFLOW_CHARS / 1024} KB.`,
          };
        return { source, text: decoded(await vscode.workspace.fs.readFile(uri)) };
      } catch (error) {
        return { source, readError: errorMessage(error) };
      }
    }),
  );
  // A folder of thousands of files is not read whole: the first ones by name, and one problem saying so.
  if (names.length > MAX_WORKFLOW_FILES)
    read.push({
      source: folderSource,
      readError: `the folder has ${names.length} workflow files; only the first ${MAX_WORKFLOW_FILES} by name are read. Remove or merge the others.`,
    });
  return read;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
