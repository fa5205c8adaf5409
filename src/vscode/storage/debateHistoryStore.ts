import type * as vscode from 'vscode';
import type { DebateHistoryStore } from '../../core/council/ports';
import { readDebateHistory, rememberDebate } from '../../core/council/debateHistory';

/** Where the workspace's last finished debates are kept (not a session key: never listed or evicted as one). */
const KEY = 'council.debateHistory';

/** The workspace's debate history in `context.workspaceState` (a damaged entry is dropped when read). */
export function mementoDebateHistory(memento: Pick<vscode.Memento, 'get' | 'update'>): DebateHistoryStore {
  const read = () => readDebateHistory(memento.get<unknown>(KEY));
  return {
    read,
    remember: async outcome => {
      await memento.update(KEY, rememberDebate(read(), outcome));
    },
  };
}
