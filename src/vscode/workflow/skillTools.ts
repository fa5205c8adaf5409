import * as vscode from 'vscode';
import type { ReadOnlyTools } from '../../core/workflow/engine/skills';
import { invokeAsText } from '../referencedTools';

/**
 * Names that suggest a tool changes something (edits files, runs commands): such tools are never offered to skills.
 * A heuristic, backed by VS Code itself: every tool runs through `vscode.lm.invokeTool`, which asks the user to
 * confirm any tool that declares it needs confirmation.
 */
const CHANGES_SOMETHING = /(edit|write|create|delete|remove|insert|replace|rename|move|apply|install|terminal|run|exec|commit|push)/i;

/** True when a tool may be named as a skill. */
export function isReadOnlyTool(tool: Pick<vscode.LanguageModelToolInformation, 'name' | 'tags'>): boolean {
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

/** The language-model tools a workflow's skills may name in this request: read-only ones, run as the user would. */
export function skillTools(request: Pick<vscode.ChatRequest, 'toolInvocationToken'>): ReadOnlyTools {
  const available = () => vscode.lm.tools.filter(isReadOnlyTool);
  return {
    names: () => available().map(tool => tool.name),
    invoke: (name, args, token) => invokeAsText(name, toolInput(args), request.toolInvocationToken, token as vscode.CancellationToken),
  };
}
