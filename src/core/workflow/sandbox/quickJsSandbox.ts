import variant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { SANDBOX_PRELUDE } from './sandboxPrelude';
import { errorFailure, messageOf, outputFailure, SCRIPT_FILE, stoppedFailure, type StopReason } from './scriptErrors';
import {
  DEFAULT_SCRIPT_LIMITS,
  type HostFunction,
  type JsonValue,
  type ScriptFailure,
  type ScriptLimits,
  type ScriptOutcome,
  type ScriptRequest,
  type ScriptSandbox,
} from './scriptSandbox';

const PAGE_BYTES = 64 * 1024;
/**
 * The engine's WebAssembly memory starts at 256 pages (16 MiB): the module's memory import declares that minimum
 * and instantiation fails below it (LinkError). The engine's own data, stack and runtime take ~7 MiB of the total,
 * so a 32 MiB limit leaves a script ~25 MiB (measured: 25 strings of 1 MiB fit, 26 do not). A `memoryBytes` below
 * 16 MiB still gets a 16 MiB engine, with QuickJS's own allocation limit (`setMemoryLimit`) at `memoryBytes`.
 */
const MIN_MEMORY_BYTES = 256 * PAGE_BYTES;
/** WebAssembly's 32-bit memories end at 4 GiB; emscripten's heap at 2 GiB. */
const MAX_MEMORY_PAGES = 32 * 1024;
/** Recursion ends in a catchable "stack overflow" well before the host's own stack (256 KiB broke the web hosts). */
const STACK_BYTES = 96 * 1024;

const now = (): number => performance.now();
const utf8Bytes = (text: string): number => new TextEncoder().encode(text).byteLength;

/**
 * One engine: its own WebAssembly instance and memory, whose maximum is the memory limit it was made for. Runs take
 * it one at a time, each in its own QuickJS runtime; it is dropped after a run that stopped (memory, CPU time,
 * cancellation) or failed under the script, and kept for the next run otherwise.
 */
interface Engine {
  readonly module: QuickJSWASMModule;
  readonly memoryBytes: number;
  /** Set when the engine asked for more memory than its maximum (what QuickJS then reports as "out of memory"). */
  readonly outOfMemory: () => boolean;
}

/**
 * Emscripten's heap-resize import returns false when the memory cannot grow (its maximum is reached): wrapping it
 * tells the host that the script hit the memory limit even if the script catches the "out of memory" error. The
 * import is found by what it does (it is the one that calls `memory.grow`), as the build minifies its name.
 */
function watchHeapResize(imports: WebAssembly.Imports, onRefused: () => void): void {
  for (const functions of Object.values(imports)) {
    for (const [name, value] of Object.entries(functions)) {
      if (typeof value !== 'function' || !String(value).includes('.grow(')) continue;
      const resize = value as (...args: unknown[]) => unknown;
      (functions as Record<string, unknown>)[name] = (...args: unknown[]) => {
        const grown = resize(...args);
        if (!grown) onRefused();
        return grown;
      };
    }
  }
}

async function newEngine(compiled: WebAssembly.Module, memoryBytes: number): Promise<Engine> {
  const maximum = Math.min(
    MAX_MEMORY_PAGES,
    Math.max(MIN_MEMORY_BYTES, Math.ceil(memoryBytes / PAGE_BYTES) * PAGE_BYTES) / PAGE_BYTES,
  );
  const memory = new WebAssembly.Memory({ initial: MIN_MEMORY_BYTES / PAGE_BYTES, maximum });
  let outOfMemory = false;
  // Emscripten never settles its start-up if instantiation fails: the failure is raced in here instead.
  let instantiationFailed: (error: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (instantiationFailed = reject));
  const module = await Promise.race([
    newQuickJSWASMModuleFromVariant(
      newVariant(variant, {
        wasmMemory: memory,
        emscriptenModule: {
          instantiateWasm(imports, onSuccess) {
            watchHeapResize(imports, () => (outOfMemory = true));
            WebAssembly.instantiate(compiled, imports).then(onSuccess, instantiationFailed);
            return {};
          },
        },
      }),
    ),
    failed,
  ]);
  return { module, memoryBytes, outOfMemory: () => outOfMemory };
}

/**
 * A run's own runtime in `engine`: limited to the engine's memory, a context created and the prelude evaluated
 * (trusted code, no script yet). About a millisecond; the engine itself takes tens.
 */
interface PreparedRun {
  readonly engine: Engine;
  readonly runtime: QuickJSRuntime;
  readonly ctx: QuickJSContext;
  /** The prelude's helpers, or the error evaluating it gave (the run reports it). */
  readonly prelude: { readonly value: QuickJSHandle } | { readonly error: QuickJSHandle };
}

function prepareRun(engine: Engine): PreparedRun {
  const runtime = engine.module.newRuntime();
  runtime.setMemoryLimit(engine.memoryBytes);
  runtime.setMaxStackSize(STACK_BYTES);
  const ctx = runtime.newContext();
  const evaluated = ctx.evalCode(SANDBOX_PRELUDE, 'prelude.js');
  const prelude = evaluated.error ? { error: evaluated.error } : { value: evaluated.value };
  return { engine, runtime, ctx, prelude };
}

/**
 * How long an engine no run uses is kept for the next script: a workflow's scripts come seconds apart (between model
 * requests), a session without scripts should not keep one.
 */
const IDLE_MS = 60_000;

/**
 * Runs workflow scripts in QuickJS compiled to WebAssembly (quickjs-emscripten, the wasm-file variant; the bytes
 * come from the host, compiled once and kept). An engine has its own `WebAssembly.Memory` whose maximum is the run's
 * memory limit, so the total is capped; every run gets a fresh QuickJS runtime and context in it (nothing a script
 * leaves — globals, prototypes — reaches the next), and the engine is reused by the next run unless the run stopped
 * or failed under the script, when it is dropped whole (its memory with it). Runs that overlap get an engine each.
 * An interrupt handler enforces the CPU limit (time spent awaiting host calls excluded) and cancellation; the prelude
 * (`sandboxPrelude.ts`) caps built-ins whose single call could run long. Scripts see the standard built-ins and what
 * the request passes in, nothing of the host; values cross the boundary as JSON text, both ways. Making an engine
 * takes tens of milliseconds and a runtime about one: a workflow's scripts sit between its model requests, on the
 * run's critical path, so the engine is made once and kept (freed after IDLE_MS without a script).
 */
export class QuickJsSandbox implements ScriptSandbox {
  private compiled: Promise<WebAssembly.Module> | undefined;
  private idle: Engine | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  /** `loadWasm` gives the engine's `.wasm` bytes; it is called when the first script runs (again if that failed). */
  constructor(private readonly loadWasm: () => Promise<Uint8Array>) {}

  async run(request: ScriptRequest): Promise<ScriptOutcome> {
    const limits: ScriptLimits = { ...DEFAULT_SCRIPT_LIMITS, ...request.limits };
    if (request.signal?.isCancellationRequested)
      return { ok: false, failure: stoppedFailure('cancelled', limits), cpuMs: 0, hostCalls: 0 };
    const engine = this.takeIdle(limits.memoryBytes) ?? (await newEngine(await this.wasmModule(), limits.memoryBytes));
    const run = new ScriptRun(prepareRun(engine), request, limits);
    const outcome = await run.run();
    if (run.leftEngineSound()) this.keepIdle(engine);
    return outcome;
  }

  /** The idle engine, when one is kept for this memory limit (it is then the caller's until its run ends). */
  private takeIdle(memoryBytes: number): Engine | undefined {
    const engine = this.idle;
    if (!engine || engine.memoryBytes !== memoryBytes) return undefined;
    this.idle = undefined;
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    return engine;
  }

  /** Keeps `engine` for the next run (replacing an idle one), freed if no script asks for it in IDLE_MS. */
  private keepIdle(engine: Engine): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idle = engine;
    this.idleTimer = setTimeout(() => {
      if (this.idle === engine) this.idle = undefined;
    }, IDLE_MS);
    // A Node timer would keep the process alive for an engine nobody needs.
    (this.idleTimer as { unref?: () => void }).unref?.();
  }

  private wasmModule(): Promise<WebAssembly.Module> {
    if (!this.compiled) {
      const compiling = this.loadWasm().then(bytes => WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>));
      this.compiled = compiling;
      compiling.catch(() => {
        if (this.compiled === compiling) this.compiled = undefined;
      });
    }
    return this.compiled;
  }
}

/** How a host promise settled. */
type Settlement = { readonly value: JsonValue } | { readonly error: unknown };

/** One run's state: its engine, the CPU it used, host calls in flight. */
class ScriptRun {
  private readonly runtime: QuickJSRuntime;
  private readonly ctx: QuickJSContext;
  private readonly handles: QuickJSHandle[] = [];
  /** Host calls in flight, by id. */
  private readonly pending = new Map<number, QuickJSDeferredPromise>();
  /** Host calls that settled, handed to the engine by the run loop (never from a host callback). */
  private readonly settled: { readonly id: number; readonly settlement: Settlement }[] = [];
  /**
   * Where host promises report back. It is all they keep of the run: once the run is over `deliver` is cleared, so a
   * host call that settles late (or never) holds no engine memory.
   */
  private readonly inbox: { deliver?: (id: number, settlement: Settlement) => void } = {
    deliver: (id, settlement) => {
      this.settled.push({ id, settlement });
      this.nudge();
    },
  };
  private nextCallId = 0;
  private wake: (() => void) | undefined;
  private stop: StopReason | undefined;
  private usedMs = 0;
  private sliceStart: number | undefined;
  private hostCalls = 0;
  /** The asynchronous host calls (numbered in call order) the script never awaited or looked at. */
  private unobservedCalls: readonly number[] = [];

  private readonly engine: Engine;
  private readonly prelude: PreparedRun['prelude'];
  /** Whether the run freed all it held (its runtime and context), so the engine can serve another. */
  private freed = false;

  constructor(
    prepared: PreparedRun,
    private readonly request: ScriptRequest,
    private readonly limits: ScriptLimits,
  ) {
    this.engine = prepared.engine;
    this.runtime = prepared.runtime;
    this.ctx = prepared.ctx;
    this.prelude = prepared.prelude;
    this.runtime.setInterruptHandler(() => this.shouldInterrupt());
  }

  async run(): Promise<ScriptOutcome> {
    const cancellation = this.request.signal?.onCancellationRequested(() => this.halt('cancelled'));
    try {
      return this.outcome(await this.execute());
    } catch (error) {
      // The engine failed under the script (its memory ran out while the host was building a value, an abort):
      // a stop explains it; anything else is the host's problem and is reported as such.
      if (this.stopReason()) return this.outcome({ failure: stoppedFailure(this.stopReason()!, this.limits) });
      throw new Error(`The script sandbox failed: ${messageOf(error)}`, { cause: error });
    } finally {
      cancellation?.dispose();
      this.dispose();
    }
  }

  private async execute(): Promise<{ value: JsonValue } | { failure: ScriptFailure }> {
    const { ctx } = this;
    // Setting up (prelude, globals, functions) runs no script code and is not the script's CPU time.
    const prelude = this.prelude;
    if ('error' in prelude) return this.failure(this.take(prelude.error), false);
    const helpers = this.keep(prelude.value);

    for (const [name, value] of Object.entries(this.request.globals ?? {})) {
      const failure = this.call(helpers, 'defineGlobal', [ctx.newString(name), ctx.newString(JSON.stringify(value))]);
      if (failure) return failure;
    }
    for (const [name, fn] of Object.entries(this.request.functions ?? {})) {
      const failure = this.call(helpers, 'defineFunction', [
        ctx.newString(name),
        ctx.newFunction(name, json => this.callHost(fn, json)),
      ]);
      if (failure) return failure;
    }

    const started = this.slice(() => ctx.evalCode(wrap(this.request), SCRIPT_FILE));
    if (started.error) return this.failure(this.take(started.error), true);
    const promise = this.keep(started.value);

    for (;;) {
      for (const { id, settlement } of this.settled.splice(0)) this.settle(id, settlement);
      const jobs = this.slice(() => this.runtime.executePendingJobs());
      if (jobs.error) return this.failure(this.take(jobs.error), false);
      const state = ctx.getPromiseState(promise);
      if (state.type === 'fulfilled') return this.result(helpers, this.keep(state.value));
      if (state.type === 'rejected') return this.failure(this.take(state.error), false);
      if (this.stopReason()) return { failure: stoppedFailure(this.stopReason()!, this.limits) };
      if (this.settled.length > 0) continue;
      if (this.pending.size === 0) {
        return { failure: { kind: 'thrown', message: 'The script awaits a promise that nothing will ever settle.' } };
      }
      await new Promise<void>(resolve => (this.wake = resolve));
    }
  }

  /** The script's value as JSON, within the output limit; read back on the host with JSON.parse. */
  private result(helpers: QuickJSHandle, value: QuickJSHandle): { value: JsonValue } | { failure: ScriptFailure } {
    const unobserved = this.keep(this.ctx.getProp(helpers, 'unobserved'));
    const calls = this.slice(() => this.ctx.callFunction(unobserved, this.ctx.undefined));
    if (calls.error) return this.failure(this.take(calls.error), false);
    this.unobservedCalls = JSON.parse(this.ctx.getString(this.keep(calls.value))) as number[];
    const finish = this.keep(this.ctx.getProp(helpers, 'finish'));
    const json = this.slice(() => this.ctx.callFunction(finish, this.ctx.undefined, value));
    if (json.error) {
      const error = this.take(json.error);
      const failure = this.failure(error, false);
      return failure.failure.kind === 'thrown'
        ? { failure: outputFailure({ notJson: messageOf(error) }, this.limits) }
        : failure;
    }
    const text = this.ctx.getString(this.keep(json.value));
    if (this.stopReason()) return { failure: stoppedFailure(this.stopReason()!, this.limits) };
    const bytes = utf8Bytes(text);
    if (bytes > this.limits.outputBytes) return { failure: outputFailure({ bytes }, this.limits) };
    return { value: JSON.parse(text) as JsonValue };
  }

  /** Calls a set-up helper with handles it then owns; a failure (memory, cancellation) is the run's. */
  private call(helpers: QuickJSHandle, name: string, args: QuickJSHandle[]): { failure: ScriptFailure } | undefined {
    const fn = this.keep(this.ctx.getProp(helpers, name));
    for (const arg of args) this.keep(arg);
    const result = this.ctx.callFunction(fn, this.ctx.undefined, ...args);
    if (result.error) return this.failure(this.take(result.error), false);
    result.value.dispose();
    return undefined;
  }

  /**
   * One call from the script to a host function: the arguments arrive as one JSON text; a plain result goes back
   * as JSON text, a promise as an engine promise settled from the run loop. A host error becomes the script's.
   * The host's own time is not the script's CPU time.
   */
  private callHost(fn: HostFunction, json: QuickJSHandle): QuickJSHandle | { error: QuickJSHandle } {
    const { ctx } = this;
    const paused = now();
    try {
      this.hostCalls += 1;
      let result: PromiseLike<JsonValue>;
      try {
        const returned = fn(...(JSON.parse(ctx.getString(json)) as JsonValue[]));
        if (!isThenable(returned)) return ctx.newString(jsonText(returned));
        result = returned;
      } catch (error) {
        return { error: this.hostError(error) };
      }
      const deferred = this.newPromise();
      const id = this.nextCallId++;
      this.pending.set(id, deferred);
      const inbox = this.inbox;
      Promise.resolve(result).then(
        value => inbox.deliver?.(id, { value }),
        (error: unknown) => inbox.deliver?.(id, { error }),
      );
      return deferred.handle;
    } finally {
      if (this.sliceStart !== undefined) this.sliceStart += now() - paused;
    }
  }

  /**
   * A new engine promise. quickjs-emscripten reads the promise's resolve/reject pointers through a view of the
   * engine's memory taken before the engine creates them; when that creation grows the memory (thousands of
   * pending calls), the view is detached and the read throws. The second try reads a fresh view (the first
   * attempt's values go with the engine, which is dropped whole after the run).
   */
  private newPromise(): QuickJSDeferredPromise {
    try {
      return this.ctx.newPromise();
    } catch (error) {
      if (!(error instanceof TypeError && /detached/i.test(error.message))) throw error;
      return this.ctx.newPromise();
    }
  }

  /** Settles the engine promise of a host call (its value as JSON text, or an Error), as engine work. */
  private settle(id: number, settlement: Settlement): void {
    const deferred = this.pending.get(id);
    if (!deferred) return;
    this.pending.delete(id);
    let how: 'resolve' | 'reject' = 'reject';
    let handle: QuickJSHandle;
    if ('value' in settlement) {
      try {
        handle = this.ctx.newString(jsonText(settlement.value));
        how = 'resolve';
      } catch (error) {
        handle = this.hostError(error);
      }
    } else {
      handle = this.hostError(settlement.error);
    }
    this.slice(() => {
      try {
        deferred[how](handle);
      } finally {
        handle.dispose();
      }
    });
  }

  private hostError(error: unknown): QuickJSHandle {
    return this.ctx.newError({ name: 'Error', message: messageOf(error) });
  }

  private shouldInterrupt(): boolean {
    if (this.request.signal?.isCancellationRequested) this.stop ??= 'cancelled';
    if (this.sliceStart !== undefined && this.usedMs + (now() - this.sliceStart) > this.limits.cpuMs)
      this.stop ??= 'timeout';
    return this.stopReason() !== undefined;
  }

  private stopReason(): StopReason | undefined {
    if (this.engine.outOfMemory()) this.stop ??= 'memory';
    return this.stop;
  }

  private halt(reason: StopReason): void {
    this.stop ??= reason;
    this.nudge();
  }

  private nudge(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Engine work, counted as the script's CPU time. */
  private slice<T>(work: () => T): T {
    this.sliceStart = now();
    try {
      return work();
    } finally {
      this.usedMs += now() - this.sliceStart;
      this.sliceStart = undefined;
    }
  }

  private failure(error: unknown, compiling: boolean): { failure: ScriptFailure } {
    const stop = this.stopReason();
    return { failure: stop ? stoppedFailure(stop, this.limits) : errorFailure(error, compiling, this.limits) };
  }

  private outcome(result: { value: JsonValue } | { failure: ScriptFailure }): ScriptOutcome {
    const cpuMs = Math.round(this.usedMs * 10) / 10;
    const stop = this.stopReason();
    // A script that caught "out of memory" (or was stopped while its value was read) still failed.
    if ('value' in result && !stop)
      return { ok: true, value: result.value, cpuMs, hostCalls: this.hostCalls, unobservedCalls: this.unobservedCalls };
    const failure = 'failure' in result ? result.failure : stoppedFailure(stop!, this.limits);
    return { ok: false, failure, cpuMs, hostCalls: this.hostCalls };
  }

  private keep(handle: QuickJSHandle): QuickJSHandle {
    this.handles.push(handle);
    return handle;
  }

  /** Reads an error handle (and frees it). */
  private take(handle: QuickJSHandle): unknown {
    try {
      return this.ctx.dump(handle);
    } finally {
      handle.dispose();
    }
  }

  /**
   * Whether the engine may serve the next run: this one did not stop (memory, CPU time, cancellation), the engine
   * never ran out of memory, and the run freed its runtime.
   */
  leftEngineSound(): boolean {
    return this.freed && this.stopReason() === undefined;
  }

  /**
   * Frees what the run holds. The engine is dropped whole after a failure here (its own module and memory), so a failure to
   * free — QuickJS may refuse after running out of memory — loses nothing.
   */
  private dispose(): void {
    this.inbox.deliver = undefined;
    this.settled.length = 0;
    try {
      for (const deferred of this.pending.values()) deferred.dispose();
      this.pending.clear();
      for (const handle of this.handles) if (handle.alive) handle.dispose();
      this.ctx.dispose();
      this.runtime.dispose();
      this.freed = true;
    } catch {
      // The engine goes with the run.
    }
  }
}

function wrap(request: ScriptRequest): string {
  // The code starts on line 1, so the engine's line numbers are the script's.
  return request.mode === 'expression' ? `(async () => (${request.code}\n))()` : `(async () => {${request.code}\n})()`;
}

function isThenable(value: unknown): value is PromiseLike<JsonValue> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/** A host value as JSON text for the script (`undefined` as null). */
function jsonText(value: JsonValue | undefined): string {
  return JSON.stringify(value ?? null);
}
