import * as vscode from 'vscode';
import type { CouncilOutput } from '../../core/council/ports';
import { resolveWorkspacePath } from '../workspace/workspacePaths';

/** Council output for a chat response; `flush` must be called once the turn is over. */
export interface ChatCouncilOutput extends CouncilOutput {
  readonly visible: (text: string) => void;
  /** Streams what must stay visible, after the turn's last progress line (see `CouncilOutput.visible`). */
  flush(): void;
}

/**
 * Council output streamed into a chat response; a cited workspace path becomes a file link. The chat view
 * folds everything streamed before a response's last progress line under "Completed N steps", so what a
 * person must see is held back and streamed by `flush`, after the last progress line, in the order given.
 */
export function chatOutput(stream: vscode.ChatResponseStream): ChatCouncilOutput {
  const held: string[] = [];
  let released = false;
  const flush = () => {
    for (const text of held.splice(0)) stream.markdown(text);
  };
  return {
    progress: message => stream.progress(message),
    markdown: text => stream.markdown(text),
    visible: text => {
      if (released) stream.markdown(text);
      else held.push(text);
    },
    release: () => {
      released = true;
      flush();
    },
    anchor: path => {
      const uri = resolveWorkspacePath(path);
      if (uri) stream.anchor(uri, path);
    },
    flush,
  };
}
