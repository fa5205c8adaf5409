import * as vscode from 'vscode';
import { SLASH } from '../../core/council/chatIntent';
import type { SessionLog } from '../../core/council/sessionLog';
import { markdownSafe } from '../../core/llm/failureMessages';
import type { SessionStore } from '../storage/sessionStore';
import { councilMetadata, newerSessionMetadata } from './councilResult';
import { commandLink } from './inlineLinks';
import type { ThreadSession } from './threadSession';

/** The command behind "Export the damaged copy": opens the stored value as JSON, as it is. */
export const EXPORT_DAMAGED_SESSION_COMMAND = 'council.exportDamagedSession';

/** A session this thread cannot simply continue. */
type Broken = Extract<ThreadSession, { kind: 'damaged' | 'missing' }>;

/** A damaged session the chat keeps an older readable copy of: `/recover` goes on from it. */
export type Recoverable = Extract<Broken, { kind: 'damaged' }> & { readonly older: SessionLog };

/** Whether `found` is a damaged session with an older readable copy. */
export function recoverable(found: ThreadSession): found is Recoverable {
  return found.kind === 'damaged' && found.older !== undefined;
}

/** Commands that do not continue the thread's session, so a damaged one does not stand in their way. */
const UNRELATED: ReadonlySet<string> = new Set([
  SLASH.newSession,
  SLASH.plan,
  SLASH.workflow,
  SLASH.open,
  SLASH.personas,
]);

/** The broken session this request must first settle, if any. */
export function mustChoose(found: ThreadSession, command: string | undefined): Broken | undefined {
  return (found.kind === 'damaged' || found.kind === 'missing') && !UNRELATED.has(command ?? '') ? found : undefined;
}

/** A link that sends `query` as the next chat request (a link in the Markdown stays in view; see inlineLinks). */
function sendLink(stream: vscode.ChatResponseStream, title: string, query: string): void {
  stream.markdown(commandLink(title, 'workbench.action.chat.open', [{ query, isPartialQuery: false }]));
  stream.markdown('\n\n');
}

function exportLink(stream: vscode.ChatResponseStream, sessionId: string): void {
  stream.markdown(commandLink('Export the damaged copy', EXPORT_DAMAGED_SESSION_COMMAND, [sessionId]));
  stream.markdown('\n\n');
}

/** "12 steps, debating (cycle 2)": how far the older copy goes, so the user knows what going on from it means. */
function extent(log: SessionLog): string {
  const c = log.snapshot.context;
  const steps = log.stored.events.length;
  return `${steps} recorded step${steps === 1 ? '' : 's'}, ${log.state}${c.debateCycles > 0 ? `, ${c.debateCycles} debate cycle${c.debateCycles === 1 ? '' : 's'} done` : ''}`;
}

/**
 * What the user reads instead of a silent new session or a silent step back: what is damaged, what the chat still
 * has, and the ways on. The message the user typed is not sent to the council (nothing is lost or overwritten);
 * the response keeps pointing at the session, so the choice stays open in the next turn.
 */
export function damagedSessionChoice(found: Broken, stream: vscode.ChatResponseStream): vscode.ChatResult {
  const id = `\`${found.sessionId}\``;
  const why = found.kind === 'missing' ? 'The session was not found in storage.' : markdownSafe(found.error);
  if (recoverable(found)) {
    stream.markdown(
      `**This chat's council session ${id} could not be restored as it was.** The copy saved in workspace storage is damaged (${why}). ` +
        `The chat keeps an older copy: ${extent(found.older)}. Steps taken after that copy are in the damaged one only. ` +
        'Your message was not sent to the council, and nothing has been changed. Choose how to go on:\n\n' +
        `- **Continue from the chat's copy** (\`/${SLASH.recover}\`): the damaged copy is kept aside for export, the older one becomes the session.\n` +
        '- **Export the damaged copy**: opens what is stored, as it is, so you can keep what is readable.\n' +
        `- **Start a new session** (\`/${SLASH.newSession}\`).\n\n`,
    );
    sendLink(stream, "Continue from the chat's copy", `@council /${SLASH.recover}`);
  } else {
    // Nothing is stored for a missing session, so there is nothing to export.
    const ways =
      found.kind === 'missing'
        ? 'You can start a new session.'
        : 'You can export what is stored, as it is, or start a new session.';
    stream.markdown(
      `**This chat's council session ${id} could not be restored** (${why}), and the chat holds no readable copy of it. ` +
        `Your message was not sent to the council, and nothing has been changed. ${ways}\n\n`,
    );
  }
  if (found.kind === 'damaged') exportLink(stream, found.sessionId);
  sendLink(stream, 'Start a new session', `@council /${SLASH.newSession}`);
  return { metadata: recoverable(found) ? councilMetadata(found.older) : newerSessionMetadata(found.sessionId) };
}

/** `/recover`: keeps the damaged copy aside (still exportable), makes the chat's older copy the session, and says where it stands. */
export async function recoverSession(
  found: Recoverable,
  store: SessionStore,
  stream: vscode.ChatResponseStream,
): Promise<vscode.ChatResult> {
  await store.setAside(found.sessionId);
  await store.save(found.older.stored);
  stream.markdown(
    `Continuing session \`${found.sessionId}\` from the chat's copy (${extent(found.older)}). The damaged copy is kept aside: **Export the damaged copy** still opens it. Ask \`@council\` to go on, or \`/${SLASH.retry}\` to resume a step that was under way.\n\n`,
  );
  exportLink(stream, found.sessionId);
  return { metadata: councilMetadata(found.older) };
}

/** Registers the export command: the stored value (set aside or not) as JSON in a new editor. */
export function registerDamagedSessionExport(store: SessionStore): vscode.Disposable {
  return vscode.commands.registerCommand(EXPORT_DAMAGED_SESSION_COMMAND, async (sessionId: unknown) => {
    const raw = typeof sessionId === 'string' ? store.rawCopy(sessionId) : undefined;
    if (raw === undefined) {
      void vscode.window.showInformationMessage('There is no stored copy of this session to export.');
      return undefined;
    }
    const document = await vscode.workspace.openTextDocument({
      language: 'json',
      content: JSON.stringify(raw, null, 2),
    });
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  });
}
