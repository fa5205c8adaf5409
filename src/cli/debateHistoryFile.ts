import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readDebateHistory, rememberDebate } from '../core/council/debateHistory';
import type { DebateHistoryStore } from '../core/council/ports';

/*
 * The project's last finished debates for the `council` command and its MCP server, so their forecasts learn from how
 * debates here end as the extension's do (which keeps its own in VS Code's workspace state). One small JSON file,
 * read once when a command starts; a missing or unreadable file is an empty history, never a failure: it only makes
 * the next forecast less informed.
 */

/** Where the history is kept in the project. */
const DEBATE_HISTORY_FILE = join('.council', 'debate-history.json');

export function fileDebateHistory(project: string): DebateHistoryStore {
  const file = join(project, DEBATE_HISTORY_FILE);
  let outcomes = readDebateHistory(readJson(file));
  return {
    read: () => outcomes,
    remember: async outcome => {
      outcomes = rememberDebate(outcomes, outcome);
      // Written whole to a temporary file, then renamed, so a crash never leaves half a history.
      await mkdir(dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, `${JSON.stringify(outcomes, null, 2)}\n`, 'utf8');
      await rename(`${file}.tmp`, file);
    },
  };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
