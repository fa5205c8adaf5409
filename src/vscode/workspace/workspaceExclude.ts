import * as vscode from 'vscode';
import { IGNORED_SEGMENTS } from '../../core/workspace/pathFilter';
import { RUN_FOLDERS } from '../../core/deepWork/runHome';

/** Folders the pipeline never lists besides the settings' excludes: dependencies, VCS, build output, earlier run reports. */
const ALWAYS_EXCLUDED: readonly string[] = [
  ...IGNORED_SEGMENTS.map(segment => `**/${segment}/**`),
  ...RUN_FOLDERS.map(folder => `${folder}/**`),
];

function enabledPatterns(setting: string, scope: vscode.Uri): string[] {
  const value = vscode.workspace.getConfiguration(setting, scope).get<Record<string, unknown>>('exclude') ?? {};
  // `true` excludes; `{ when }` conditions (sibling rules) are left to findFiles' own defaults, so they are skipped here.
  return Object.entries(value)
    .filter(([pattern, enabled]) => enabled === true && !pattern.includes('{'))
    .flatMap(([glob]) => [glob, `${glob}/**`]);
}

/**
 * The globs excluded under `folder`: `files.exclude` and `search.exclude` (passing an exclude to findFiles replaces its
 * default of files.exclude alone), plus `node_modules`, `.git`, `dist`, `out` and the run folders (`.council/runs`,
 * `.council/workflow-runs`).
 */
export function workspaceExcludePatterns(folder: vscode.Uri): string[] {
  return [...new Set([...ALWAYS_EXCLUDED, ...enabledPatterns('files', folder), ...enabledPatterns('search', folder)])];
}

/** The patterns as one `findFiles` exclude glob. */
export function excludeGlobOf(patterns: readonly string[]): string {
  return `{${patterns.join(',')}}`;
}
