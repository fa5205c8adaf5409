import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ActionableError } from '../../core/actionableError';
import { outputPath, type RunOutputs } from '../../core/workflow/engine/runOutputs';

/**
 * A run's files in the project folder (`folder`, e.g. `.council/runs/wf-…`, is project-relative). Every path goes
 * through `outputPath`, which refuses anything outside the run folder, and no part of it may be a symbolic link, so a
 * write never lands outside the project.
 */
export class ProjectRunOutputs implements RunOutputs {
  constructor(
    private readonly project: string,
    readonly folder: string,
  ) {}

  async write(relativePath: string, content: string): Promise<{ path: string; sizeBytes: number }> {
    const path = outputPath(this.folder, relativePath);
    const segments = path.split('/');
    for (let end = 1; end <= segments.length; end++) {
      const partial = segments.slice(0, end).join('/');
      const link = await lstat(join(this.project, partial)).then(
        info => info.isSymbolicLink(),
        () => false,
      );
      if (link)
        throw new ActionableError(
          `Refused to write \`${path}\`: \`${partial}\` is a symbolic link, and a run writes only to real folders inside the project. Replace the link with a folder, then resume the run.`,
        );
    }
    const full = join(this.project, ...segments);
    await mkdir(join(this.project, ...segments.slice(0, -1)), { recursive: true });
    await writeFile(full, content, 'utf8');
    return { path, sizeBytes: Buffer.byteLength(content, 'utf8') };
  }

  async read(relativePath: string): Promise<string | undefined> {
    try {
      return await readFile(join(this.project, ...outputPath(this.folder, relativePath).split('/')), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
