import * as vscode from 'vscode';

/** A chat response stream that keeps what a handler would have shown, for a tool result. */
export interface CapturedStream {
  readonly stream: vscode.ChatResponseStream;
  /** The Markdown written so far, with links for anchors and the buttons' titles. */
  text(): string;
}

/**
 * What the chat handlers write, as text an agent reads: Markdown as written, anchors as links, buttons named; each
 * progress line goes to `onProgress` (the tool's progress notification) instead.
 */
export function capturedStream(onProgress: (message: string) => void): CapturedStream {
  const parts: string[] = [];
  const link = (value: vscode.Uri | vscode.Location, title?: string) => {
    const uri = value instanceof vscode.Location ? value.uri : value;
    return `[${title ?? vscode.workspace.asRelativePath(uri)}](${uri.toString()})`;
  };
  const stream: vscode.ChatResponseStream = {
    markdown: value => parts.push(typeof value === 'string' ? value : value.value),
    anchor: (value, title) => parts.push(link(value, title)),
    button: command => parts.push(`\n\n(The chat offers a button: ${command.title}.)\n\n`),
    filetree: () => undefined,
    progress: value => onProgress(value),
    reference: () => undefined,
    push: part => {
      if (part instanceof vscode.ChatResponseMarkdownPart) parts.push(part.value.value);
      else if (part instanceof vscode.ChatResponseAnchorPart)
        parts.push(link(part.value as vscode.Uri | vscode.Location, part.title));
      else if (part instanceof vscode.ChatResponseProgressPart) onProgress(part.value);
    },
  };
  return { stream, text: () => parts.join('') };
}
