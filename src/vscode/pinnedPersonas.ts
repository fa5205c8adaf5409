import type * as vscode from 'vscode';

const KEY = 'council.pinnedPersonas';

/** Persona ids the user chose with "Council: Select Personas" for their next sessions (empty: the council chooses). */
export function pinnedPersonaIds(context: vscode.ExtensionContext): readonly string[] {
  const value = context.workspaceState.get<unknown>(KEY);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function setPinnedPersonaIds(context: vscode.ExtensionContext, ids: readonly string[]): Thenable<void> {
  return context.workspaceState.update(KEY, ids.length > 0 ? [...ids] : undefined);
}
