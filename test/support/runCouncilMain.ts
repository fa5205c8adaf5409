import { main } from '../../src/cli/council';
import type { LanguageModel } from '../../src/core/llm/languageModel';

/** Runs `main`, capturing what it wrote to stdout and stderr. */
export async function runCouncilMain(argv: readonly string[], project: string, model?: LanguageModel) {
  const out: string[] = [];
  const err: string[] = [];
  const { write: stdout } = process.stdout;
  const { write: stderr } = process.stderr;
  process.stdout.write = ((chunk: string) => out.push(chunk) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => err.push(chunk) > 0) as typeof process.stderr.write;
  try {
    const code = await main(argv, project, model);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}
