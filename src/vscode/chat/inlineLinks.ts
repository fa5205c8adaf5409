import * as vscode from 'vscode';

/*
 * Links written inside Markdown instead of as separate response parts. The chat view folds everything before a
 * response's last step under "Completed N steps", and a button or a file anchor is a part of its own that ends
 * the visible run of Markdown: what a person must click at a checkpoint or under a report is therefore written as
 * Markdown links, which stay in view.
 */

/** Markdown text, escaped so a label cannot break out of its link. */
function label(text: string): string {
  return text.replace(/[\\[\]()*_`]/g, character => `\\${character}`);
}

/** A link that runs `command` with `args` when clicked; only that command is enabled in this Markdown. */
export function commandLink(title: string, command: string, args: readonly unknown[]): vscode.MarkdownString {
  const href = `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
  const markdown = new vscode.MarkdownString(`[${label(title)}](${href})`);
  markdown.isTrusted = { enabledCommands: [command] };
  return markdown;
}

/** A link that opens a workspace file. */
export function fileLink(uri: vscode.Uri, title: string): string {
  return `[${label(title)}](${uri.toString()})`;
}
