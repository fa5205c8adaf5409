import { messageOf, stoppedFailure } from './scriptErrors';
import {
  DEFAULT_SCRIPT_LIMITS,
  type ScriptFailure,
  type ScriptLimits,
  type ScriptOutcome,
  type ScriptRequest,
  type ScriptSandbox,
} from './scriptSandbox';
import type { FromScriptWorker, MessagePortLike, ToScriptWorker } from './scriptWorker';

/** A worker the host can stop at once, whatever it is doing. */
export interface ScriptWorker extends MessagePortLike<FromScriptWorker, ToScriptWorker> {
  terminate(): void;
  /** Called if the worker dies on its own (a crash), with why. */
  onExit(handler: (reason: string) => void): void;
}

/**
 * How far past its CPU limit a run may go without a word before its worker is terminated. The engine's own
 * interrupt enforces the CPU limit inside the worker exactly as on the web host (engine time, host calls
 * excluded); this catches only what it cannot see between checks (a loop of object spreads over a huge object).
 */
export const HARD_STOP_GRACE_MS = 1000;
const CHECK_EVERY_MS = 100;

interface Running {
  readonly request: ScriptRequest;
  readonly limits: ScriptLimits;
  readonly settle: (outcome: ScriptOutcome) => void;
  cancellation?: { dispose(): unknown };
  /** When the worker last showed this run was not stuck: it started, called the host, or a host call returned. */
  lastHeard: number;
  hostInFlight: number;
  hostCalls: number;
}

/**
 * Runs scripts in a worker (one, reused) with the same sandbox inside, so a script that the engine cannot interrupt
 * in time is stopped by terminating its worker: the host's thread never blocks. A run whose busy time (wall time
 * minus its host calls) passes its CPU limit by HARD_STOP_GRACE_MS fails as `timeout`; the worker is replaced, and
 * the runs it was also serving fail the same way. Host functions run here, on the host, called through messages.
 */
export class WorkerSandbox implements ScriptSandbox {
  private worker: ScriptWorker | undefined;
  private readonly runs = new Map<number, Running>();
  private nextId = 1;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly spawn: () => ScriptWorker,
    private readonly now: () => number = () => performance.now(),
  ) {}

  run(request: ScriptRequest): Promise<ScriptOutcome> {
    const limits: ScriptLimits = { ...DEFAULT_SCRIPT_LIMITS, ...request.limits };
    if (request.signal?.isCancellationRequested)
      return Promise.resolve({ ok: false, failure: stoppedFailure('cancelled', limits), cpuMs: 0, hostCalls: 0 });
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<ScriptOutcome>(settle => {
      const run: Running = {
        request,
        limits,
        settle,
        lastHeard: this.now(),
        hostInFlight: 0,
        hostCalls: 0,
      };
      this.runs.set(id, run);
      run.cancellation = request.signal?.onCancellationRequested(() => this.worker?.post({ kind: 'cancel', id }));
      // The host functions stay here (the worker calls them by name); the signal is answered with `cancel`.
      const { functions, signal: _signal, ...crossing } = request;
      worker.post({ kind: 'run', id, request: { ...crossing, functions: Object.keys(functions ?? {}), limits } });
      this.timer ??= setInterval(() => this.enforce(), CHECK_EVERY_MS);
    });
  }

  private ensureWorker(): ScriptWorker {
    if (this.worker) return this.worker;
    const worker = this.spawn();
    worker.onMessage(message => void this.receive(worker, message));
    worker.onExit(reason => {
      if (this.worker !== worker) return;
      const failure = { kind: 'thrown', message: `The script engine stopped unexpectedly (${reason}).` } as const;
      this.failAll(() => ({ failure, cpuMs: 0 }));
    });
    this.worker = worker;
    return worker;
  }

  private async receive(worker: ScriptWorker, message: FromScriptWorker): Promise<void> {
    const run = this.runs.get(message.id);
    if (!run || worker !== this.worker) return;
    if (message.kind === 'done') return this.finish(message.id, message.outcome);
    const fn = run.request.functions?.[message.name];
    run.hostCalls += 1;
    run.hostInFlight += 1;
    run.lastHeard = this.now();
    try {
      if (!fn) throw new Error(`${message.name} is not available to this script.`);
      const value = await fn(...message.args);
      if (this.worker === worker) worker.post({ kind: 'hostResult', id: message.id, callId: message.callId, value });
    } catch (error) {
      if (this.worker === worker)
        worker.post({ kind: 'hostError', id: message.id, callId: message.callId, message: messageOf(error) });
    } finally {
      run.hostInFlight -= 1;
      run.lastHeard = this.now();
    }
  }

  private finish(id: number, outcome: ScriptOutcome): void {
    const run = this.runs.get(id);
    if (!run) return;
    this.runs.delete(id);
    run.cancellation?.dispose();
    if (this.runs.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    run.settle(outcome);
  }

  /**
   * A run the worker has been silent about for longer than its CPU limit and the grace (no host call made or
   * answered, none waiting) is stuck where the engine cannot interrupt it: it takes its worker (and the runs
   * sharing it) down. Message passing between worker and host is not silence, so busy host traffic is never
   * mistaken for script CPU (the engine counts that, as on the web host).
   */
  private enforce(): void {
    const now = this.now();
    const overdue = [...this.runs.values()].some(
      run => run.hostInFlight === 0 && now - run.lastHeard > run.limits.cpuMs + HARD_STOP_GRACE_MS,
    );
    if (!overdue) return;
    this.worker?.terminate();
    this.failAll(run => ({
      failure: stoppedFailure('timeout', run.limits),
      cpuMs: Math.round(run.limits.cpuMs + HARD_STOP_GRACE_MS),
    }));
  }

  /** The worker is gone: every run it was serving fails. */
  private failAll(failed: (run: Running) => { failure: ScriptFailure; cpuMs: number }): void {
    this.worker = undefined;
    for (const [id, run] of [...this.runs]) this.finish(id, { ok: false, ...failed(run), hostCalls: run.hostCalls });
  }
}
