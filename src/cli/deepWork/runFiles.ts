import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newerVersionOf } from '../../core/storage/versioned';
import {
  readStoredWorkflowRun,
  storeWorkflowRun,
  STORED_WORKFLOW_RUN_FORMAT,
  type StoredWorkflowRun,
  type WorkflowRunStatus,
} from '../../core/deepWork/storedWorkflowRun';
import { RUN_ID } from '../../core/workflow/engine/runId';
import type { WorkflowRunState } from '../../core/workflow/engine/workflowRunState';

/*
 * Deep-work runs of the `council` command: one versioned JSON file each (the stored format the extension keeps in
 * workspace storage), `.council/runs/<run-id>.json`, beside the run's own folder of files `.council/runs/<run-id>/`.
 */

const RUNS_FOLDER = join('.council', 'runs');

/** A saved run read back, or why it cannot be used. */
export type RunFileRead =
  | { readonly kind: 'found'; readonly run: StoredWorkflowRun; readonly warnings?: readonly string[] }
  | { readonly kind: 'missing' }
  /** Saved by a newer Council: never resumed or overwritten here. */
  | { readonly kind: 'newer'; readonly message: string }
  | { readonly kind: 'damaged'; readonly message: string };

export class RunFiles {
  readonly folder: string;

  constructor(projectFolder: string) {
    this.folder = join(projectFolder, RUNS_FOLDER);
  }

  /** The file of `runId`. */
  fileOf(runId: string): string {
    return join(this.folder, `${runId}.json`);
  }

  /**
   * Written whole to a temporary file, then renamed, so a crash never leaves half a run. A newer Council's file under
   * the same id is never overwritten (the save rejects with what to do).
   */
  async save(state: WorkflowRunState, status: WorkflowRunStatus, message?: string): Promise<void> {
    const file = this.fileOf(state.runId);
    const newer = newerVersionOf(STORED_WORKFLOW_RUN_FORMAT, await this.raw(file));
    if (newer) throw newer;
    await mkdir(this.folder, { recursive: true });
    const entry = storeWorkflowRun(state, status, new Date().toISOString(), message);
    await writeFile(`${file}.tmp`, `${JSON.stringify(entry, null, 2)}\n`, 'utf8');
    await rename(`${file}.tmp`, file);
  }

  async read(runId: string): Promise<RunFileRead> {
    if (!RUN_ID.test(runId)) return { kind: 'missing' };
    let raw: unknown;
    try {
      raw = await this.raw(this.fileOf(runId));
    } catch (error) {
      return { kind: 'damaged', message: `${this.fileOf(runId)} is not JSON: ${errorText(error)}` };
    }
    if (raw === undefined) return { kind: 'missing' };
    const read = readStoredWorkflowRun(raw);
    if (read.kind === 'current')
      return { kind: 'found', run: read.value, ...(read.warnings ? { warnings: read.warnings } : {}) };
    if (read.kind === 'newer') return { kind: 'newer', message: read.error.message };
    return { kind: 'damaged', message: read.error };
  }

  /** The most recently updated readable run of `workflow`, if any. */
  async newest(workflow: string): Promise<StoredWorkflowRun | undefined> {
    return (await this.list(workflow))[0];
  }

  /** Every readable run of `workflow`, most recently updated first (what its forecasts learn from). */
  async list(workflow: string): Promise<StoredWorkflowRun[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const reads = await Promise.all(
      names.filter(name => name.endsWith('.json')).map(name => this.read(name.slice(0, -'.json'.length))),
    );
    return reads
      .flatMap(read => (read.kind === 'found' && read.run.workflow === workflow ? [read.run] : []))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /** The file's JSON, or undefined when there is none; throws when it is not JSON. */
  private async raw(file: string): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return JSON.parse(text) as unknown;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
