import * as vscode from 'vscode';
import { attachedContextContributor } from '../../core/plan/contributors/attachedContext';
import type { AttachedItem } from '../../core/session/attachedItem';
import { episodicMemoryContributor } from '../../core/plan/contributors/episodicMemory';
import type { PromptContributorRegistry } from '../../core/plan/contributors/registry';
import { defaultContributors } from '../../core/deepWork/runDeepWork';
import { workspaceFactsContributor, type WorkspaceFacts } from '../../core/plan/contributors/workspaceFacts';
import { isVisibleFile } from '../../core/workspace/workspaceIndex';
import type { WorkspaceReader } from '../../core/workspace/workspaceReader';
import type { EpisodicMemory } from '../../core/plan/contributors/episodicMemory';

/** Workspace facts from VS Code: the workspace's name and folders, and languages and file count from the reader's listing. */
function vscodeWorkspaceFacts(reader: WorkspaceReader): WorkspaceFacts {
  return {
    async read(token) {
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (folders.length === 0) return undefined;
      const files = (await reader.listFiles(undefined, 5000, token)).filter(isVisibleFile);
      const counts = new Map<string, number>();
      for (const file of files) {
        const extension = /\.([A-Za-z0-9]+)$/.exec(file.path)?.[1]?.toLowerCase();
        if (extension) counts.set(extension, (counts.get(extension) ?? 0) + 1);
      }
      const languages = [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([extension]) => extension);
      return {
        name: vscode.workspace.name ?? folders[0]?.name ?? 'workspace',
        folders: folders.map(f => f.name),
        languages,
        fileCount: files.length,
      };
    },
  };
}

/** The contributors of a run in VS Code: the default tool guidance, plus workspace facts, episodic memory and the user's attached context. */
export function planContributors(
  reader: WorkspaceReader,
  /** Earlier runs in this workspace (the run store). */
  runs: EpisodicMemory,
  attached: readonly AttachedItem[] = [],
): PromptContributorRegistry {
  return defaultContributors()
    .register(attachedContextContributor(attached))
    .register(workspaceFactsContributor(vscodeWorkspaceFacts(reader)))
    .register(episodicMemoryContributor(runs));
}
