import type { CancellationSignal } from '../../llm/languageModel';
import type { PromptContributor } from './promptContributor';
import { listSome } from './text';

/** What the workspace looks like, as the host reports it. */
export interface WorkspaceFactsSnapshot {
  readonly name: string;
  /** Workspace folder names (or workspace-relative paths). */
  readonly folders: readonly string[];
  /** Main languages, most used first. */
  readonly languages: readonly string[];
  readonly fileCount: number;
}

/** Port to the host's workspace (VS Code adapter: workspace folders and a file count). */
export interface WorkspaceFacts {
  /** The facts, or undefined when no folder is open. */
  read(token?: CancellationSignal): Promise<WorkspaceFactsSnapshot | undefined>;
}

/** How many folders and languages are named before "and N more". */
const MAX_LISTED = 10;

/** Tells every agent the workspace's name, folders, languages and size. */
export function workspaceFactsContributor(facts: WorkspaceFacts): PromptContributor {
  return {
    name: 'workspace-facts',
    appliesTo: 'all',
    priority: 600,
    async contribute(_ctx, token) {
      const snapshot = await facts.read(token);
      if (snapshot === undefined) return undefined;
      const lines = [`Workspace: ${snapshot.name}`];
      if (snapshot.folders.length > 0) lines.push(`Folders: ${listSome(snapshot.folders, MAX_LISTED)}`);
      if (snapshot.languages.length > 0) lines.push(`Languages: ${listSome(snapshot.languages, MAX_LISTED)}`);
      lines.push(`Files: ${snapshot.fileCount}`);
      return lines.join('\n');
    },
  };
}
