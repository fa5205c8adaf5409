import * as vscode from 'vscode';

/** Must match `contributes.chatParticipants[0].id` in package.json. */
const PARTICIPANT_ID = 'council.council';

/**
 * PLACEHOLDER until the real council participant lands: registers `@council` and answers
 * "Council is ready." so the build, packaging and integration harness have something real to load.
 */
export function activate(context: vscode.ExtensionContext): void {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, async (_request, _context, stream) => {
    stream.markdown('Council is ready.');
    return { metadata: { placeholder: true } };
  });
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'council.png');
  context.subscriptions.push(participant);
}

/** Nothing to clean up beyond `context.subscriptions`. */
export function deactivate(): void {}
