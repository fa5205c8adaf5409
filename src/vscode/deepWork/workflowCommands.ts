import * as vscode from 'vscode';
import { exists, folderForNewFile, nameForNewFile, writeNewFile } from '../workspace/workspaceFiles';
import { resolveWorkspacePath } from '../workspace/workspacePaths';
import { WORKFLOW_TEMPLATE } from '../../core/workflow/definition/workflowTemplate';
import { describeIssues, type WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import {
  describeWorkflowSource,
  type WorkflowCatalog,
  type WorkflowProblem,
} from '../../core/deepWork/buildWorkflowCatalog';
import type { DeepWorkDeps } from './deepWorkTurn';
import { WORKSPACE_WORKFLOW_FOLDER, workspaceWorkflowFolder } from './workflowCatalog';
import { templateFor, validateWorkflowName, workflowChatQuery } from './workflowNames';

/** Command ids; package.json `contributes.commands` declares the same. */
export const WORKFLOW_COMMAND = {
  create: 'council.createWorkflow',
  run: 'council.runWorkflow',
} as const;

/** Optional argument of `council.createWorkflow`: a `name` skips the input box (scripts, tests). */
export interface CreateWorkflowArgs {
  readonly name?: string;
}

/** What `council.createWorkflow` did: the new file, or why it created nothing (already shown to the user). */
export type CreateWorkflowResult =
  | { readonly created: vscode.Uri }
  | {
      readonly refused: 'noFolder' | 'untrusted' | 'invalidName' | 'exists' | 'cancelled';
      readonly message?: string;
      readonly existing?: vscode.Uri;
    };

/** Optional argument of `council.runWorkflow`: `name` skips the pick, `goal` the input box. */
export interface RunWorkflowArgs {
  readonly name?: string;
  readonly goal?: string;
}

const FOLDER_LABEL = WORKSPACE_WORKFLOW_FOLDER.join('/');

/** Registers "Council: Create Workflow" and "Council: Run Workflow". */
export function registerWorkflowCommands(loadCatalog: DeepWorkDeps['catalog']): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(WORKFLOW_COMMAND.create, (args?: CreateWorkflowArgs) => createWorkflow(args)),
    vscode.commands.registerCommand(WORKFLOW_COMMAND.run, (args?: RunWorkflowArgs) => runWorkflow(loadCatalog, args)),
  ];
}

/**
 * Asks for a kebab-case name and writes `.council/workflows/<name>.yaml` from the template, then opens it.
 * Running the command is the user's confirmation to create that one new file; it never overwrites one (an existing
 * file is offered to be opened instead).
 */
async function createWorkflow(args: CreateWorkflowArgs = {}): Promise<CreateWorkflowResult> {
  const folder = await folderForNewFile('workflow', FOLDER_LABEL);
  if ('refused' in folder) return folder;
  const name = await nameForNewFile(args.name, () => askForName(folder), validateWorkflowName);
  if (typeof name !== 'string') return name;

  const existing = await existingWorkflowFile(folder, name);
  if (existing) {
    const message = `${vscode.workspace.asRelativePath(existing)} already exists; Council will not overwrite it. Open it to edit the workflow, or choose another name.`;
    const open = 'Open File';
    void vscode.window
      .showWarningMessage(message, open)
      .then(choice => (choice === open ? vscode.window.showTextDocument(existing) : undefined));
    return { refused: 'exists', message, existing };
  }
  return writeNewFile(
    workspaceWorkflowFolder(folder),
    workflowFileUri(folder, name),
    templateFor(name, WORKFLOW_TEMPLATE),
  );
}

/**
 * Lets the user pick a workflow of the catalogue (files that give none are listed too, with their problem; picking
 * one opens it at the problem) and type the goal, then sends `@council /workflow <name> <goal>` in chat and resolves
 * with the chat result. Resolves with undefined when the user cancels or the named workflow does not exist.
 */
async function runWorkflow(
  loadCatalog: DeepWorkDeps['catalog'],
  args: RunWorkflowArgs = {},
): Promise<vscode.ChatResult | undefined> {
  const catalog = await loadCatalog();
  const workflow = args.name !== undefined ? namedWorkflow(catalog, args.name) : await pickWorkflow(catalog);
  if (!workflow) return undefined;
  const goal =
    args.goal ??
    (await vscode.window.showInputBox({
      title: `Council: Run Workflow ${workflow.name}`,
      prompt: `What should the workflow work on? ${workflow.description}`.trim(),
      placeHolder: 'e.g. Add input validation to the settings form',
      ignoreFocusOut: true,
      validateInput: value => (value.trim() === '' ? 'Describe the goal in a sentence.' : undefined),
    }));
  if (!goal?.trim()) return undefined;
  return vscode.commands.executeCommand<vscode.ChatResult | undefined>('workbench.action.chat.open', {
    query: workflowChatQuery(workflow.name, goal),
    isPartialQuery: false,
    blockOnResponse: true,
  });
}

function namedWorkflow(catalog: WorkflowCatalog, name: string): WorkflowDefinition | undefined {
  const workflow = catalog.get(name);
  if (!workflow) {
    const known = catalog.workflows.map(w => `\`${w.name}\``).join(', ') || 'none';
    void vscode.window.showWarningMessage(`There is no workflow \`${name}\`. Workflows: ${known}.`);
  }
  return workflow;
}

type WorkflowPickItem = vscode.QuickPickItem & {
  readonly workflow?: WorkflowDefinition;
  readonly problem?: WorkflowProblem;
};

async function pickWorkflow(catalog: WorkflowCatalog): Promise<WorkflowDefinition | undefined> {
  const items: WorkflowPickItem[] = catalog.workflows.map(workflow => ({
    label: workflow.name,
    description: workflow.description,
    detail: describeWorkflowSource(workflow.source),
    workflow,
  }));
  if (catalog.problems.length > 0) {
    items.push({ label: 'Files with problems (pick one to open it)', kind: vscode.QuickPickItemKind.Separator });
    for (const problem of catalog.problems) {
      const [first] = problem.issues;
      const more = problem.issues.length > 1 ? ` (+${problem.issues.length - 1} more)` : '';
      items.push({
        label: `$(warning) ${problem.source.path}`,
        description: 'cannot be run',
        detail: first
          ? `${first.line ? `line ${first.line}: ` : ''}\`${first.field}\`: ${first.message}${more}`
          : undefined,
        problem,
      });
    }
  }
  if (catalog.workflows.length === 0 && catalog.problems.length === 0) {
    void vscode.window.showInformationMessage(
      `There are no workflows. Create one with "Council: Create Workflow" (it goes to ${FOLDER_LABEL}).`,
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Council: Run Workflow',
    placeHolder: vscode.workspace.isTrusted
      ? `Pick a workflow (built-in, or from ${FOLDER_LABEL})`
      : `Pick a workflow (the workspace's ${FOLDER_LABEL} is not used in an untrusted workspace)`,
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (picked?.problem) await showProblem(picked.problem);
  return picked?.workflow;
}

/** Opens a workspace file at its first problem and says what is wrong; a built-in's problem is only shown. */
async function showProblem(problem: WorkflowProblem): Promise<void> {
  const text = describeIssues(problem.source, problem.issues);
  const uri = problem.source.kind === 'workspace' ? resolveWorkspacePath(problem.source.path) : undefined;
  if (uri) {
    const line = Math.max((problem.issues[0]?.line ?? 1) - 1, 0);
    const column = Math.max((problem.issues[0]?.column ?? 1) - 1, 0);
    const position = new vscode.Position(line, column);
    await vscode.window
      .showTextDocument(uri, { selection: new vscode.Range(position, position) })
      .then(undefined, () => undefined);
  }
  void vscode.window.showWarningMessage(`This workflow file cannot be run until this is fixed:\n${text}`);
}

function workflowFileUri(folder: vscode.WorkspaceFolder, name: string, extension = 'yaml'): vscode.Uri {
  return vscode.Uri.joinPath(workspaceWorkflowFolder(folder), `${name}.${extension}`);
}

/** `<name>.yaml` or `<name>.yml` when either exists (both would define the same workflow). */
async function existingWorkflowFile(folder: vscode.WorkspaceFolder, name: string): Promise<vscode.Uri | undefined> {
  for (const extension of ['yaml', 'yml']) {
    const uri = workflowFileUri(folder, name, extension);
    if (await exists(uri)) return uri;
  }
  return undefined;
}

function askForName(folder: vscode.WorkspaceFolder): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Council: Create Workflow',
    prompt: `Name of the new workflow (kebab-case); its file goes to ${FOLDER_LABEL}/<name>.yaml`,
    placeHolder: 'e.g. code-review',
    ignoreFocusOut: true,
    validateInput: async value => {
      const invalid = validateWorkflowName(value);
      if (invalid) return invalid;
      const existing = await existingWorkflowFile(folder, value);
      if (existing) {
        return {
          message: `${vscode.workspace.asRelativePath(existing)} already exists; Council will not overwrite it (Enter offers to open it).`,
          severity: vscode.InputBoxValidationSeverity.Warning,
        };
      }
      return { message: `Creates ${FOLDER_LABEL}/${value}.yaml`, severity: vscode.InputBoxValidationSeverity.Info };
    },
  });
}
