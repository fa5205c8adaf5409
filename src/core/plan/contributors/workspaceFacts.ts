import type { CancellationSignal } from '../../llm/languageModel';
import type { AgentType } from '../schemas/agentType';
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

/** Options for the workspace facts contributor. */
export interface WorkspaceFactsOptions {
  readonly priority?: number;
  readonly appliesTo?: readonly AgentType[] | 'all';
  /** How many folders and languages to name before "and N more" (default 10). */
  readonly maxListed?: number;
}

/** Tells every agent the workspace's name, folders, languages and size. */
export function workspaceFactsContributor(
  facts: WorkspaceFacts,
  options: WorkspaceFactsOptions = {},
): PromptContributor {
  const maxListed = options.maxListed ?? 10;
  return {
    name: 'workspace-facts',
    appliesTo: options.appliesTo ?? 'all',
    priority: options.priority ?? 600,
    async contribute(_ctx, token) {
      const snapshot = await facts.read(token);
      if (snapshot === undefined) return undefined;
      const lines = [`Workspace: ${snapshot.name}`];
      if (snapshot.folders.length > 0) lines.push(`Folders: ${listSome(snapshot.folders, maxListed)}`);
      if (snapshot.languages.length > 0) lines.push(`Languages: ${listSome(snapshot.languages, maxListed)}`);
      lines.push(`Files: ${snapshot.fileCount}`);
      return lines.join('\n');
    },
  };
}
