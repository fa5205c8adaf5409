import * as vscode from 'vscode';
import {
  exists,
  folderForNewFile,
  nameForNewFile,
  pickWorkspaceFolder,
  refusal,
  writeNewFile,
} from '../workspace/workspaceFiles';
import { personaIdFromName, personaTemplate, validatePersonaName } from './personaTemplate';
import { WORKSPACE_PERSONA_FOLDER, workspacePersonaFolder } from './personaSource';

/** Command ids; package.json `contributes.commands` declares the same. */
export const PERSONA_COMMAND = {
  create: 'council.createPersona',
  openFolder: 'council.openPersonaFolder',
} as const;

/** Optional argument of `council.createPersona`: a `name` skips the input box (scripts, tests). */
export interface CreatePersonaArgs {
  readonly name?: string;
}

/** What `council.createPersona` did: the new file, or why it created nothing (already shown to the user). */
export type CreatePersonaResult =
  | { readonly created: vscode.Uri }
  | { readonly refused: 'noFolder' | 'untrusted' | 'invalidName' | 'exists' | 'cancelled'; readonly message?: string };

const FOLDER_LABEL = WORKSPACE_PERSONA_FOLDER.join('/');

/**
 * Registers `council.createPersona` and `council.openPersonaFolder` and adds them to `context.subscriptions`;
 * returns the same disposables for callers that unregister early (tests).
 */
export function registerPersonaCommands(context: Pick<vscode.ExtensionContext, 'subscriptions'>): vscode.Disposable[] {
  const disposables = [
    vscode.commands.registerCommand(PERSONA_COMMAND.create, (args?: CreatePersonaArgs) => createPersona(args)),
    vscode.commands.registerCommand(PERSONA_COMMAND.openFolder, () => openPersonaFolder()),
  ];
  context.subscriptions.push(...disposables);
  return disposables;
}

/**
 * Asks for a display name and writes `.council/personas/<id>.md` from the template, then opens it.
 * Running the command is the user's confirmation to create that one new file; it never overwrites.
 */
async function createPersona(args: CreatePersonaArgs = {}): Promise<CreatePersonaResult> {
  const folder = await folderForNewFile('persona', FOLDER_LABEL);
  if ('refused' in folder) return folder;
  const name = await nameForNewFile(args.name, () => askForName(folder), validatePersonaName);
  if (typeof name !== 'string') return name;

  const id = personaIdFromName(name);
  const uri = vscode.Uri.joinPath(workspacePersonaFolder(folder), `${id}.md`);
  if (await exists(uri)) {
    return refusal(
      'exists',
      `${vscode.workspace.asRelativePath(uri)} already exists; Council will not overwrite it. Open it to edit the persona, or choose another name.`,
    );
  }
  return writeNewFile(workspacePersonaFolder(folder), uri, personaTemplate(name));
}

/**
 * Reveals `.council/personas` in the Explorer. A missing folder is created only after a modal
 * confirmation; with no folder open the user is told so. Resolves with the folder when it was revealed.
 */
async function openPersonaFolder(): Promise<vscode.Uri | undefined> {
  const folder = await pickWorkspaceFolder(`Which folder's ${FOLDER_LABEL} should hold the persona?`);
  if (!folder) {
    await vscode.window.showInformationMessage(
      `Open a folder first: workspace personas live in ${FOLDER_LABEL} inside it.`,
    );
    return undefined;
  }
  const directory = workspacePersonaFolder(folder);
  if (!(await exists(directory))) {
    if (!vscode.workspace.isTrusted) {
      await vscode.window.showInformationMessage(
        `${FOLDER_LABEL} does not exist, and Council does not use workspace personas in an untrusted workspace.`,
      );
      return undefined;
    }
    const create = 'Create Folder';
    const answer = await vscode.window.showInformationMessage(
      `${FOLDER_LABEL} does not exist in ${folder.name}. Create it?`,
      { modal: true, detail: 'Persona files (*.md) in this folder add to or override the built-in personas.' },
      create,
    );
    if (answer !== create) return undefined;
    await vscode.workspace.fs.createDirectory(directory);
  }
  await vscode.commands.executeCommand('revealInExplorer', directory);
  return directory;
}

function askForName(folder: vscode.WorkspaceFolder): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Council: Create Persona',
    prompt: `Display name of the new persona; its file goes to ${FOLDER_LABEL}/<id>.md`,
    placeHolder: 'e.g. Database Administrator',
    validateInput: async value => {
      const invalid = validatePersonaName(value);
      if (invalid) return invalid;
      const file = `${FOLDER_LABEL}/${personaIdFromName(value)}.md`;
      if (await exists(vscode.Uri.joinPath(folder.uri, file))) return `${file} already exists; choose another name.`;
      return { message: `Creates ${file}`, severity: vscode.InputBoxValidationSeverity.Info };
    },
  });
}
