import * as vscode from 'vscode';
import { SessionLog } from '../../core/council/sessionLog';
import { assumptionsMarkdown, transcriptMarkdown } from '../../core/council/wording/transcript';
import { systemClock } from '../../core/clock';
import { loadCouncilPersonas } from '../personas/personaSource';
import { setPinnedPersonaIds, pinnedPersonaIds } from '../personas/pinnedPersonas';
import type { SessionStore } from '../storage/sessionStore';
import { readCouncilSettings } from '../settings';

/** The palette commands' ids (package.json `contributes.commands`). */
const COMMAND = {
  newSession: 'council.newSession',
  cancelSession: 'council.cancelSession',
  selectPersonas: 'council.selectPersonas',
  showAssumptionLog: 'council.showAssumptionLog',
  exportTranscript: 'council.exportTranscript',
} as const;

/** The most recently updated session, or a message saying there is none. */
function latestSession(store: SessionStore): SessionLog | undefined {
  const latest = store.latest();
  if (!latest?.ok) {
    void vscode.window.showInformationMessage(
      'There is no council session yet. Ask @council a question in chat to start one.',
    );
    return undefined;
  }
  return SessionLog.restore(latest.stored);
}

async function openMarkdown(content: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

/** Registers the command-palette actions on the latest session. Test-only arguments skip the prompts. */
export function registerCouncilCommands(context: vscode.ExtensionContext, store: SessionStore): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMAND.newSession, () =>
      vscode.commands.executeCommand('workbench.action.chat.open', { query: '@council /new ', isPartialQuery: true }),
    ),
    vscode.commands.registerCommand(COMMAND.cancelSession, async () => {
      const log = latestSession(store);
      if (!log) return undefined;
      if (log.state === 'completed' || log.state === 'cancelled') {
        void vscode.window.showInformationMessage(`The latest council session is already ${log.state}.`);
        return log.state;
      }
      log.apply({ type: 'CANCELLED', at: systemClock.now() });
      await store.save(log.stored);
      void vscode.window.showInformationMessage('Council session cancelled.');
      return log.state;
    }),
    vscode.commands.registerCommand(COMMAND.selectPersonas, async (args?: { readonly ids?: readonly string[] }) => {
      const registry = await loadCouncilPersonas(context.extensionUri, readCouncilSettings());
      let ids = args?.ids;
      if (!ids) {
        const pinned = new Set(pinnedPersonaIds(context));
        const picked = await vscode.window.showQuickPick(
          registry.personas.map(p => ({
            label: p.name,
            description: p.id,
            detail: p.role,
            picked: pinned.has(p.id),
            id: p.id,
          })),
          {
            canPickMany: true,
            title: 'Council: choose the personas for your next sessions (none = let the council choose)',
          },
        );
        if (!picked) return undefined;
        ids = picked.map(p => p.id);
      }
      const known = ids.filter(id => registry.personas.some(p => p.id === id));
      await setPinnedPersonaIds(context, known);
      void vscode.window.showInformationMessage(
        known.length > 0
          ? `New council sessions will use: ${known.join(', ')}.`
          : 'The council will choose its personas for each request again.',
      );
      return known;
    }),
    vscode.commands.registerCommand(COMMAND.showAssumptionLog, async () => {
      const log = latestSession(store);
      return log ? openMarkdown(assumptionsMarkdown(log.snapshot)) : undefined;
    }),
    vscode.commands.registerCommand(COMMAND.exportTranscript, async (args?: { readonly uri?: vscode.Uri }) => {
      const log = latestSession(store);
      if (!log) return undefined;
      const markdown = transcriptMarkdown(log.snapshot, log.ledger.entries);
      // Writing a file needs the user's explicit choice of where; otherwise it opens unsaved.
      const target =
        args?.uri ??
        (await vscode.window.showSaveDialog({
          filters: { Markdown: ['md'] },
          saveLabel: 'Export transcript',
          defaultUri: vscode.workspace.workspaceFolders?.[0]
            ? vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, `council-${log.sessionId.slice(0, 8)}.md`)
            : undefined,
        }));
      if (!target) return openMarkdown(markdown);
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(markdown));
      return target;
    }),
  ];
}
