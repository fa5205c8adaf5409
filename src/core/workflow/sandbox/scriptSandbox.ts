import type { CancellationSignal } from '../../llm/languageModel';

/** A value that crosses the sandbox boundary: plain JSON only, copied both ways. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * A host function a script may call. Its arguments arrive as JSON copies; a returned promise is awaited by the
 * script (that wait is not counted as the script's CPU time). A thrown Error reaches the script as an Error with the
 * same message, which the script may catch.
 */
export type HostFunction = (...args: JsonValue[]) => JsonValue | Promise<JsonValue>;

/** What one script run may use. */
export interface ScriptLimits {
  /** CPU time of the script itself, awaited host calls excluded (default 1000 ms). */
  readonly cpuMs: number;
  /** Total memory of the script's engine (default 32 MiB). */
  readonly memoryBytes: number;
  /** Size of the JSON of the returned value (default 1 MiB). */
  readonly outputBytes: number;
}

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = {
  cpuMs: 1000,
  memoryBytes: 32 * 1024 * 1024,
  outputBytes: 1024 * 1024,
};

/** One script to run. */
export interface ScriptRequest {
  /**
   * `body`: the body of an async function (may `await` host functions and `return` a value; no return gives null).
   * `expression`: one JavaScript expression whose value is the result (checkpoint conditions, criteria checks).
   */
  readonly mode: 'body' | 'expression';
  readonly code: string;
  /** Read-only globals (deep-frozen copies), e.g. `context`. */
  readonly globals?: Readonly<Record<string, JsonValue>>;
  /** Host functions by global name, e.g. `thinkHard`, `readFile`. */
  readonly functions?: Readonly<Record<string, HostFunction>>;
  readonly limits?: Partial<ScriptLimits>;
  /** Cancels a pending host call and the run (outcome `cancelled`). */
  readonly signal?: CancellationSignal;
}

/** Why a script did not give a value. */
export interface ScriptFailure {
  readonly kind:
    | 'syntax' // the code does not parse
    | 'thrown' // the script threw (including a host function's error it did not catch)
    | 'timeout' // CPU limit
    | 'memory' // memory limit
    | 'output' // returned value too large, or not JSON (a function, a cycle, undefined inside)
    | 'stack' // recursion too deep
    | 'cancelled';
  /** One sentence for the user, e.g. "The script used more than its 1000 ms of CPU time." */
  readonly message: string;
  /** 1-based line in the script, when known. */
  readonly line?: number;
}

/** What a script run gave. */
export type ScriptOutcome =
  | {
      readonly ok: true;
      readonly value: JsonValue;
      readonly cpuMs: number;
      readonly hostCalls: number;
      /** The asynchronous host calls (every host call numbered from 0 in call order) the script never looked at. */
      readonly unobservedCalls?: readonly number[];
    }
  | { readonly ok: false; readonly failure: ScriptFailure; readonly cpuMs: number; readonly hostCalls: number };

/** Runs untrusted workflow scripts with no access to anything but what the request passes in. */
export interface ScriptSandbox {
  run(request: ScriptRequest): Promise<ScriptOutcome>;
}
