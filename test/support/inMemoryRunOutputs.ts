import { outputPath, type RunOutputs } from '../../src/core/workflow/engine/runOutputs';

/** Keeps files in memory (tests and the bench). */
export class InMemoryRunOutputs implements RunOutputs {
  readonly files = new Map<string, string>();
  constructor(readonly folder: string) {}
  async write(relativePath: string, content: string): Promise<{ path: string; sizeBytes: number }> {
    const path = outputPath(this.folder, relativePath);
    this.files.set(path, content);
    return { path, sizeBytes: new TextEncoder().encode(content).length };
  }
  async read(relativePath: string): Promise<string | undefined> {
    return this.files.get(outputPath(this.folder, relativePath));
  }
}
