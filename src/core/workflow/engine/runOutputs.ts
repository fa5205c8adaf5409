import { ActionableError } from '../../actionableError';

/**
 * Where a run writes its files: only under its own output folder (`.council/workflow-runs/<run-id>`,
 * `.council/runs/<run-id>` for `/plan`). The VS Code layer
 * writes with `workspace.fs`; tests keep files in memory. Paths are validated here, once, for every writer.
 */
export interface RunOutputs {
  /** Workspace-relative folder of the run, e.g. `.council/workflow-runs/run-…`. */
  readonly folder: string;
  /** Writes (or replaces) a file under the folder; returns its workspace-relative path and size. */
  write(relativePath: string, content: string): Promise<{ readonly path: string; readonly sizeBytes: number }>;
  /** A file under the folder, or undefined when there is none. */
  read(relativePath: string): Promise<string | undefined>;
}

/**
 * The workspace-relative path of `relativePath` inside `folder`, or an ActionableError when it would leave the
 * folder (`..`, an absolute path, a drive letter, a backslash, an empty name). A path that already starts with the
 * folder is taken as it is, so scripts may pass back the paths `context.deliverables` shows them.
 */
export function outputPath(folder: string, relativePath: string): string {
  const raw = relativePath.trim();
  const refuse = (why: string) =>
    new ActionableError(
      `Refused to write \`${relativePath}\`: ${why}. Workflow files may only be written under the run's folder \`${folder}\`, with a relative path such as \`notes/summary.md\`.`,
    );
  if (raw === '') throw refuse('the path is empty');
  if (raw.includes('\\')) throw refuse('backslashes are not allowed');
  if (raw.startsWith('/') || /^[a-zA-Z]:/.test(raw) || raw.includes('\0')) throw refuse('it is an absolute path');
  const inner = raw.startsWith(`${folder}/`) ? raw.slice(folder.length + 1) : raw;
  const parts = inner.split('/').filter(part => part !== '' && part !== '.');
  if (parts.some(part => part === '..')) throw refuse('it leaves the run folder');
  if (parts.length === 0) throw refuse('it names the folder itself');
  return `${folder}/${parts.join('/')}`;
}
