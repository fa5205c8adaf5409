import * as vscode from 'vscode';
import type { CouncilOutput } from '../core/council/ports';
import { resolveWorkspacePath } from './plan/workspacePaths';

/** Council output streamed into a chat response; a cited workspace path becomes a file link. */
export function chatOutput(stream: vscode.ChatResponseStream): CouncilOutput {
  return {
    progress: message => stream.progress(message),
    markdown: text => stream.markdown(text),
    anchor: path => {
      const uri = resolveWorkspacePath(path);
      if (uri) stream.anchor(uri, path);
    },
  };
}
