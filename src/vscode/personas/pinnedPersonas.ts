import type * as vscode from 'vscode';
import type { PersonaContract } from '../../core/personas/contract';

const KEY = 'council.pinnedPersonas';

/** Persona ids the user chose with "Council: Select Personas" for their next sessions (empty: the council chooses). */
export function pinnedPersonaIds(context: vscode.ExtensionContext): readonly string[] {
  const value = context.workspaceState.get<unknown>(KEY);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function setPinnedPersonaIds(context: vscode.ExtensionContext, ids: readonly string[]): Thenable<void> {
  return context.workspaceState.update(KEY, ids.length > 0 ? [...ids] : undefined);
}

/** `request` in the explicit naming form the persona selector honours ("with X, Y: …"), so `pinned` sit on the council. */
export function withPinned(request: string, pinned: readonly PersonaContract[]): string {
  return pinned.length > 0 ? `with ${pinned.map(p => p.name).join(', ')}: ${request}` : request;
}
