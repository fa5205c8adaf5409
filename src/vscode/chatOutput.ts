import type * as vscode from 'vscode';
import type { CouncilOutput } from '../core/council/ports';

/** Council output streamed into a chat response. */
export function chatOutput(stream: vscode.ChatResponseStream): CouncilOutput {
  return {
    progress: message => stream.progress(message),
    markdown: text => stream.markdown(text),
  };
}
