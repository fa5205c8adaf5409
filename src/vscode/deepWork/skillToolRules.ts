/** Which language-model tools a workflow's skills may name, and how a skill's `args` become a tool's input (no `vscode` import, so unit tests run it). */

/**
 * Names that suggest a tool changes something (edits files, runs commands): such tools are never offered to skills.
 * A heuristic, backed by VS Code itself: every tool runs through `vscode.lm.invokeTool`, which asks the user to
 * confirm any tool that declares it needs confirmation.
 */
const CHANGES_SOMETHING =
  /(edit|write|create|delete|remove|insert|replace|rename|move|apply|install|terminal|run|exec|commit|push)/i;

/** True when a tool may be named as a skill. */
export function isReadOnlyTool(tool: { readonly name: string; readonly tags: readonly string[] }): boolean {
  return !CHANGES_SOMETHING.test(tool.name) && !tool.tags.some(tag => CHANGES_SOMETHING.test(tag));
}

/**
 * A skill's `args` as a tool's input: each `--key=value` becomes a property; the others are kept as `args`
 * (`["--query=auth", "src"]` -> `{ query: "auth", args: ["src"] }`).
 */
export function toolInput(args: readonly string[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const rest: string[] = [];
  for (const arg of args) {
    const pair = /^--([A-Za-z][\w-]*)=(.*)$/s.exec(arg);
    if (pair) input[pair[1] as string] = pair[2];
    else rest.push(arg);
  }
  return rest.length ? { ...input, args: rest } : input;
}
