import type { MessageTurn } from '../../../src/core/session/turns';

/** Every maximal run of consecutive `final`-status turns, in order. */
export function finalRuns(turns: readonly MessageTurn[]): ReadonlyArray<readonly MessageTurn[]> {
  const runs: MessageTurn[][] = [];
  let current: MessageTurn[] | undefined;
  for (const turn of turns) {
    if (turn.sessionStatus !== 'final') {
      current = undefined;
      continue;
    }
    if (current === undefined) {
      current = [];
      runs.push(current);
    }
    current.push(turn);
  }
  return runs;
}
