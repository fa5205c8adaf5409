import { ActionableError } from '../../actionableError';
import type { Clock } from '../../clock';
import { outputPath, type RunOutputs } from './runOutputs';
import type { WorkflowContext } from './workflowContext';

/** What a run may write in all. */
export interface RunFileLimits {
  /** Files one run may write (a file written again counts once), and their bytes in all. */
  readonly maxFiles: number;
  readonly maxBytes: number;
}

/** "20 MB", "1.5 KB", "400 bytes". */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

/**
 * The files a run writes, all under its output folder: each is checked against the run's limits before a byte is
 * written, recorded as a deliverable in the context, and its text kept (scripts' helpers and `{{include:…}}` read it
 * from here, so no file is read again).
 */
export class RunFiles {
  /** Deliverables' text by workspace-relative path. */
  readonly contents = new Map<string, string>();

  constructor(
    private readonly context: WorkflowContext,
    private readonly outputs: RunOutputs,
    private readonly limits: RunFileLimits,
    private readonly clock: Clock,
  ) {}

  /** Reads back what earlier turns of the run wrote (a resumed run). */
  async load(): Promise<void> {
    for (const deliverable of this.context.deliverables) {
      const text = await this.outputs.read(deliverable.path).catch(() => undefined);
      if (text !== undefined) this.contents.set(deliverable.path, text);
    }
  }

  /** Writes `content` at `path` (relative to the run folder, or under it) for `subagent` of `phase`; its full path. */
  async write(phase: string, subagent: string, path: string, content: string): Promise<string> {
    const { deliverables } = this.context;
    const { maxFiles, maxBytes } = this.limits;
    // A rewritten file replaces its old size.
    const target = outputPath(this.context.output_dir, path);
    const before = deliverables.find(deliverable => deliverable.path === target);
    const files = deliverables.length + (before ? 0 : 1);
    const bytes =
      deliverables.reduce((sum, deliverable) => sum + deliverable.size_bytes, 0) -
      (before?.size_bytes ?? 0) +
      new TextEncoder().encode(content).length;
    if (files > maxFiles || bytes > maxBytes)
      throw new ActionableError(
        `Refused to write \`${target}\`: a run may write at most ${maxFiles} files and ${sizeText(maxBytes)} in all, and this would make ${files} files, ${sizeText(bytes)}. Write fewer or smaller files.`,
      );
    const written = await this.outputs.write(path, content);
    const now = this.clock.now();
    const entry = {
      phase,
      subagent,
      path: written.path,
      size_bytes: written.sizeBytes,
      created_at: now,
      timestamp: now,
    };
    const existing = deliverables.findIndex(deliverable => deliverable.path === written.path);
    if (existing >= 0) deliverables[existing] = entry;
    else deliverables.push(entry);
    this.contents.set(written.path, content);
    return written.path;
  }
}
