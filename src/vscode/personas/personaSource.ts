import * as vscode from 'vscode';
import { MAX_PERSONA_CHARS } from '../../core/personas/parse';
import { loadPersonas, type PersonaFile, type PersonaRegistry, type PersonaSource } from '../../core/personas/registry';
import { decodeUtf8 } from '../../core/textEncoding';
import { BUILT_IN_PERSONA_FILES, BUILT_IN_PERSONA_FOLDER } from './builtInPersonaFiles';
import type { CouncilSettings } from '../settings';
import { fileNamesIn, inEveryWorkspaceFolder } from '../workspace/workspaceFiles';

/** Where a workspace keeps its persona files, relative to each workspace folder. */
export const WORKSPACE_PERSONA_FOLDER = ['.council', 'personas'] as const;

const decoder = new TextDecoder('utf-8');

/**
 * The extension's built-in personas (`personas/*.md`), read with `vscode.workspace.fs` so it works in
 * the web extension host too. Paths are reported as `personas/<file>.md`.
 */
export function builtInPersonaSource(extensionUri: vscode.Uri): PersonaSource {
  return {
    list: () =>
      Promise.all(
        BUILT_IN_PERSONA_FILES.map(async file => ({
          path: `${BUILT_IN_PERSONA_FOLDER}/${file}`,
          text: decoder.decode(
            await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, BUILT_IN_PERSONA_FOLDER, file)),
          ),
        })),
      ),
  };
}

/** Built-in files only change with the extension, and reading them costs ~1 s over http on the web: read once. */
const builtInFilesByExtension = new Map<string, Promise<readonly PersonaFile[]>>();

function cachedBuiltInSource(extensionUri: vscode.Uri): PersonaSource {
  const key = extensionUri.toString();
  return {
    list: () => {
      let files = builtInFilesByExtension.get(key);
      if (!files) {
        files = builtInPersonaSource(extensionUri).list();
        // A failed read is not cached, so the next turn tries again.
        files.catch(() => builtInFilesByExtension.delete(key));
        builtInFilesByExtension.set(key, files);
      }
      return files;
    },
  };
}

/**
 * The workspace's personas: `.council/personas/*.md` in every workspace folder, folders in order,
 * files sorted by name. Lists nothing when the workspace is untrusted, the setting is off or no folder
 * has the persona folder. Paths are workspace-relative (`.council/personas/dba.md`; prefixed with the
 * folder name in a multi-root workspace) so problem messages are readable.
 */
export function workspacePersonaSource(settings: Pick<CouncilSettings, 'useWorkspacePersonas'>): PersonaSource {
  return {
    async list(): Promise<readonly PersonaFile[]> {
      if (!settings.useWorkspacePersonas || !vscode.workspace.isTrusted) return [];
      return inEveryWorkspaceFolder(personaFilesIn);
    },
  };
}

/** The persona folder of a workspace folder. */
export function workspacePersonaFolder(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, ...WORKSPACE_PERSONA_FOLDER);
}

/** Bytes a persona file may have on disk before it is read at all (UTF-8: at most 4 bytes a character). */
const MAX_PERSONA_BYTES = MAX_PERSONA_CHARS * 4;

/** One workspace persona file as text, or the sentence why it cannot be (its own problem, never the others'). */
async function personaFile(uri: vscode.Uri, path: string): Promise<PersonaFile> {
  const unreadable = (message: string): PersonaFile => ({ path, text: '', unreadable: message });
  try {
    const { size } = await vscode.workspace.fs.stat(uri);
    if (size > MAX_PERSONA_BYTES)
      return unreadable(
        `${path}: the file is ${Math.round(size / 1024).toLocaleString('en-US')} KB; a persona may have at most ${MAX_PERSONA_CHARS.toLocaleString('en-US')} characters. Shorten it.`,
      );
    const decoded = decodeUtf8(await vscode.workspace.fs.readFile(uri), path);
    return decoded.ok ? { path, text: decoded.text } : unreadable(decoded.message);
  } catch (error) {
    return unreadable(`${path}: could not be read (${error instanceof Error ? error.message : String(error)}).`);
  }
}

/** Persona files read from one folder: a council has a handful; thousands would be read on every turn. */
const MAX_PERSONA_FILES = 50;

async function personaFilesIn(folder: vscode.WorkspaceFolder, multiRoot: boolean): Promise<readonly PersonaFile[]> {
  const directory = workspacePersonaFolder(folder);
  const names = await fileNamesIn(directory, name => name.endsWith('.md'));
  const path = vscode.workspace.asRelativePath(directory, multiRoot);
  const skipped: PersonaFile[] =
    names.length > MAX_PERSONA_FILES
      ? [
          {
            path,
            text: '',
            unreadable: `${path}: the folder has ${names.length} persona files; only the first ${MAX_PERSONA_FILES} by name are read. Remove or merge the others.`,
          },
        ]
      : [];
  const files = await Promise.all(
    names.slice(0, MAX_PERSONA_FILES).map(entryName => {
      const uri = vscode.Uri.joinPath(directory, entryName);
      return personaFile(uri, vscode.workspace.asRelativePath(uri, multiRoot));
    }),
  );
  return [...files, ...skipped];
}

/**
 * Loads the personas a session may use: the built-ins, overridden or extended by the workspace's
 * (subject to trust and `council.personas.useWorkspacePersonas`). Malformed files are in `problems`.
 */
export function loadCouncilPersonas(
  extensionUri: vscode.Uri,
  settings: Pick<CouncilSettings, 'useWorkspacePersonas'>,
): Promise<PersonaRegistry> {
  return loadPersonas({ builtIn: cachedBuiltInSource(extensionUri), workspace: workspacePersonaSource(settings) });
}
