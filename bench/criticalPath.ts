/**
 * The critical path of a set of timed calls: the longest chain of calls in which each call
 * started strictly after the previous one ended. A call is taken to depend on every call that
 * ENDED before it STARTED, so the chain length is the number of sequential round-trips that no
 * amount of parallelism could have removed, and `length x latency` is a lower bound on wall time.
 * Pure: no clocks, no I/O.
 */

/** One call's start and end, on any monotonic clock. */
export interface TimedCall {
  readonly start: number;
  readonly end: number;
}

export interface CriticalPath {
  /** Number of calls on the longest chain (0 for no calls). */
  readonly length: number;
  /** Indices into the input of the calls on one longest chain, in order. */
  readonly chain: readonly number[];
}

/** Longest path, counted in calls, through the "ended before started" DAG of `calls`. */
export function criticalPath(calls: readonly TimedCall[]): CriticalPath {
  for (const [i, call] of calls.entries()) {
    if (!Number.isFinite(call.start) || !Number.isFinite(call.end) || call.end < call.start) {
      throw new Error(`criticalPath: call ${i} has an invalid interval [${call.start}, ${call.end}]`);
    }
  }
  // end_j < start_i implies start_j < start_i, so visiting by start time is a topological order.
  const order = calls
    .map((_, i) => i)
    .sort((a, b) => calls[a]!.start - calls[b]!.start || calls[a]!.end - calls[b]!.end);
  const depth = new Array<number>(calls.length).fill(0);
  const previous = new Array<number>(calls.length).fill(-1);
  let last = -1;
  for (const i of order) {
    const call = calls[i]!;
    depth[i] = 1;
    for (const j of order) {
      const before = calls[j]!;
      if (before.start >= call.start) break;
      if (before.end < call.start && depth[j]! + 1 > depth[i]!) {
        depth[i] = depth[j]! + 1;
        previous[i] = j;
      }
    }
    if (last < 0 || depth[i]! > depth[last]!) last = i;
  }
  const chain: number[] = [];
  for (let at = last; at >= 0; at = previous[at]!) chain.unshift(at);
  return { length: chain.length, chain };
}

/** A call with how long it takes on its own (its nominal duration). */
export interface WeightedCall extends TimedCall {
  readonly weight: number;
}

/**
 * The heaviest chain through the same "ended before started" DAG: the sum of nominal durations that no amount of
 * parallelism could have removed, i.e. a lower bound on wall time when calls take different times.
 */
export function weightedCriticalPath(calls: readonly WeightedCall[]): {
  readonly total: number;
  readonly chain: readonly number[];
} {
  const order = calls
    .map((_, i) => i)
    .sort((a, b) => calls[a]!.start - calls[b]!.start || calls[a]!.end - calls[b]!.end);
  const best = new Array<number>(calls.length).fill(0);
  const previous = new Array<number>(calls.length).fill(-1);
  let last = -1;
  for (const i of order) {
    const call = calls[i]!;
    best[i] = call.weight;
    for (const j of order) {
      const before = calls[j]!;
      if (before.start >= call.start) break;
      if (before.end < call.start && best[j]! + call.weight > best[i]!) {
        best[i] = best[j]! + call.weight;
        previous[i] = j;
      }
    }
    if (last < 0 || best[i]! > best[last]!) last = i;
  }
  const chain: number[] = [];
  for (let at = last; at >= 0; at = previous[at]!) chain.unshift(at);
  return { total: last < 0 ? 0 : best[last]!, chain };
}

/** A tiny self-check, run by the bench before it trusts the function. Throws on a wrong answer. */
export function checkCriticalPath(): void {
  const expect = (name: string, calls: readonly TimedCall[], length: number, chain?: readonly number[]) => {
    const got = criticalPath(calls);
    if (got.length !== length || (chain && got.chain.join() !== chain.join())) {
      throw new Error(
        `criticalPath self-check "${name}": expected ${length} [${chain?.join() ?? '?'}], got ${got.length} [${got.chain.join()}]`,
      );
    }
  };
  expect('empty', [], 0, []);
  expect(
    'sequential',
    [
      { start: 0, end: 1 },
      { start: 2, end: 3 },
      { start: 4, end: 5 },
    ],
    3,
    [0, 1, 2],
  );
  expect(
    'parallel',
    [
      { start: 0, end: 10 },
      { start: 0, end: 10 },
      { start: 1, end: 9 },
    ],
    1,
  );
  // Touching intervals are concurrent: the dependency needs end < start.
  expect(
    'touching',
    [
      { start: 0, end: 1 },
      { start: 1, end: 2 },
    ],
    1,
  );
  // A fan-out/fan-in (a, then b || c, then d) is 3 deep, whatever order the input lists them in.
  expect(
    'diamond',
    [
      { start: 11, end: 20 },
      { start: 0, end: 5 },
      { start: 6, end: 10 },
      { start: 6, end: 9 },
    ],
    3,
  );
  // Speculation: next-cycle drafts (2, 3) overlap the moderator (1) and all feed the next moderator (4).
  expect(
    'speculative',
    [
      { start: 0, end: 10 },
      { start: 11, end: 21 },
      { start: 11, end: 21 },
      { start: 11, end: 21 },
      { start: 22, end: 32 },
    ],
    3,
  );
  // A long call is one round-trip even if short ones could chain beside it.
  expect(
    'long vs short chain',
    [
      { start: 0, end: 100 },
      { start: 0, end: 1 },
      { start: 2, end: 3 },
      { start: 4, end: 5 },
    ],
    3,
    [1, 2, 3],
  );
  // Weighted: the one long call outweighs three short ones in a row.
  const weighted = weightedCriticalPath([
    { start: 0, end: 100, weight: 100 },
    { start: 0, end: 1, weight: 1 },
    { start: 2, end: 3, weight: 1 },
    { start: 4, end: 5, weight: 1 },
  ]);
  if (weighted.total !== 100 || weighted.chain.join() !== '0')
    throw new Error(`weightedCriticalPath self-check: got ${weighted.total} [${weighted.chain.join()}]`);
}
