import * as vscode from 'vscode';

/** What a tool reports while it works, and the cancellation of the tool call or of the notification's Cancel. */
export interface ToolProgress {
  report(message: string): void;
  readonly token: vscode.CancellationToken;
}

/** A notification line stays readable: the first line of what was said, shortened. */
const LINE_MAX = 160;

function oneLine(text: string): string {
  const first =
    text
      .replace(/[*_`>#]/g, '')
      .split('\n')
      .map(line => line.trim())
      .find(line => line !== '') ?? '';
  return first.length > LINE_MAX ? `${first.slice(0, LINE_MAX - 1)}…` : first;
}

/** Seen by the integration tests: when each progress line was shown (the last few). */
export const shownProgress: { readonly at: number; readonly message: string }[] = [];
const SHOWN_KEPT = 50;

/**
 * Runs `work` under a notification that shows what the council is doing (who is drafting, each cycle's summary, the
 * cost so far) instead of a spinner for a minute: the stable API gives a tool no progress inside the chat, so the
 * window's progress notification carries it. Its Cancel stops the run like the chat's Stop.
 */
export function withToolProgress<T>(
  title: string,
  token: vscode.CancellationToken,
  work: (progress: ToolProgress) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (notification, cancelled) => {
      const source = new vscode.CancellationTokenSource();
      const links = [
        token.onCancellationRequested(() => source.cancel()),
        cancelled.onCancellationRequested(() => source.cancel()),
      ];
      if (token.isCancellationRequested) source.cancel();
      // Handed on, not awaited: the notification adds no frame to the tool's path to the model.
      return work({
        report: message => {
          const line = oneLine(message);
          if (!line) return;
          notification.report({ message: line });
          shownProgress.push({ at: Date.now(), message: line });
          if (shownProgress.length > SHOWN_KEPT) shownProgress.splice(0, shownProgress.length - SHOWN_KEPT);
        },
        token: source.token,
      }).finally(() => {
        for (const link of links) link.dispose();
        source.dispose();
      });
    },
  );
}
