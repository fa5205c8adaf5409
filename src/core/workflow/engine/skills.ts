import type { CancellationSignal } from '../../llm/languageModel';

/** The read-only language-model tools a skill may name (VS Code's `vscode.lm.tools`, filtered). */
export interface ReadOnlyTools {
  names(): readonly string[];
  /** Runs the tool with `{ args }` and returns its text result. */
  invoke(name: string, args: readonly string[], token: CancellationSignal): Promise<string>;
}
