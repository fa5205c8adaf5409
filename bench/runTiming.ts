/**
 * How a run's wall time compares with the model time no scheduling could save, and where the rest went: the
 * heaviest chain of calls that ran one after another (each weighted by its nominal duration, bench/latencyModel.ts),
 * and Council's own time along that chain (before the first call, between one call's end and the next one's start,
 * after the last). Pure: times in, figures out.
 */
import { weightedCriticalPath } from './criticalPath';
import type { LatencyProfile, TimedCall } from './latencyModel';

/** A run's timing, in model time (real time ÷ the profile's scale) unless said otherwise. */
export interface RunTiming {
  readonly wallMs: number;
  /** The critical-path bound: the heaviest chain's nominal model time. */
  readonly boundMs: number;
  readonly ratio: number;
  /** Calls on that chain. */
  readonly chainCalls: number;
  /** Council's own time along the chain, in real ms (it is not scaled: it weighs 1/scale times more in model time). */
  readonly ownMs: { readonly before: number; readonly between: number; readonly after: number };
  /** The calls on the chain that ran longer than their nominal time, in real ms over it, summed. */
  readonly lateMs: number;
  /** The largest gap between two calls of the chain: the steps it lies between and its real ms. */
  readonly largestGap?: { readonly from: string; readonly to: string; readonly ms: number };
  /** Of Council's own time on the chain, what named pieces of work took (real ms), e.g. `scripts`. */
  readonly within: Readonly<Record<string, number>>;
}

/** A piece of Council's own work, timed like the calls (real ms), e.g. one script run in the sandbox. */
export interface WorkInterval {
  readonly what: string;
  readonly start: number;
  readonly end: number;
}

/** How much of [from, to] the intervals cover (overlaps counted once). */
function covered(intervals: readonly WorkInterval[], from: number, to: number): number {
  const clipped = intervals
    .map(i => [Math.max(from, i.start), Math.min(to, i.end)] as const)
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reached = from;
  for (const [a, b] of clipped) {
    if (b <= reached) continue;
    total += b - Math.max(a, reached);
    reached = b;
  }
  return total;
}

/** The timing of a run that started at `started` and ended at `finished` (real ms) and made `calls`. */
export function runTiming(
  calls: readonly TimedCall[],
  started: number,
  finished: number,
  profile: LatencyProfile,
  work: readonly WorkInterval[] = [],
): RunTiming {
  const useful = calls.filter(call => call.outcome === 'ok');
  const bound = weightedCriticalPath(useful.map(c => ({ start: c.start, end: c.end, weight: c.nominalMs })));
  const chain = bound.chain.map(index => useful[index]!);
  const wallMs = (finished - started) / profile.scale;
  let between = 0;
  let largestGap: RunTiming['largestGap'];
  for (let i = 1; i < chain.length; i++) {
    const gap = chain[i]!.start - chain[i - 1]!.end;
    between += gap;
    if (largestGap === undefined || gap > largestGap.ms)
      largestGap = { from: chain[i - 1]!.step, to: chain[i]!.step, ms: gap };
  }
  const lateMs = chain.reduce((sum, c) => sum + Math.max(0, c.end - c.start - c.nominalMs * profile.scale), 0);
  // The stretches of the chain where no call ran: Council's own time, which named work may explain.
  const gaps: (readonly [number, number])[] = [];
  let at = started;
  for (const call of chain) {
    gaps.push([at, call.start]);
    at = call.end;
  }
  gaps.push([at, finished]);
  const within: Record<string, number> = {};
  for (const what of new Set(work.map(w => w.what))) {
    const mine = work.filter(w => w.what === what);
    within[what] = gaps.reduce((sum, [from, to]) => sum + covered(mine, from, to), 0);
  }
  return {
    wallMs,
    boundMs: bound.total,
    ratio: bound.total === 0 ? 0 : wallMs / bound.total,
    chainCalls: chain.length,
    ownMs: {
      before: chain.length === 0 ? 0 : chain[0]!.start - started,
      between,
      after: chain.length === 0 ? 0 : finished - chain.at(-1)!.end,
    },
    lateMs,
    ...(largestGap === undefined ? {} : { largestGap }),
    within,
  };
}

/** "before 3 ms, between 21 ms (largest 9 ms, discovery_report → discovery_collector_result), after 1 ms; …". */
export function ownTimeText(timing: RunTiming): string {
  const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
  const { before, between, after } = timing.ownMs;
  const largest = timing.largestGap
    ? ` (largest ${ms(timing.largestGap.ms)}, ${timing.largestGap.from} → ${timing.largestGap.to})`
    : '';
  const within = Object.entries(timing.within)
    .map(([what, spent]) => `, ${what} ${ms(spent)} of it`)
    .join('');
  return `Council's own time on the critical path, real: before the first call ${ms(before)}, between calls ${ms(between)}${largest}, after the last ${ms(after)}${within}; calls over their nominal time ${ms(timing.lateMs)}`;
}
