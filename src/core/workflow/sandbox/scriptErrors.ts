import type { ScriptFailure, ScriptLimits } from './scriptSandbox';

/** The file name the user's code is evaluated under: stack frames in it give the script's own line numbers. */
export const SCRIPT_FILE = 'script.js';

/** Why the host stopped a run, whatever error the engine reports for it. */
export type StopReason = 'cancelled' | 'memory' | 'timeout';

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);
const mib = (bytes: number): string => {
  const value = bytes / (1024 * 1024);
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
};

/** The message of an error thrown on the host, or of one read from the engine (a plain `{ name, message }`). */
export function messageOf(error: unknown): string {
  return error !== null && typeof error === 'object' && 'message' in error ? String(error.message) : String(error);
}

/** The 1-based line in the user's code of the innermost stack frame there, if any. */
function scriptLine(stack: unknown): number | undefined {
  if (typeof stack !== 'string') return undefined;
  const match = new RegExp(`${SCRIPT_FILE.replace('.', '\\.')}:(\\d+)`).exec(stack);
  return match ? Number(match[1]) : undefined;
}

/** An error value as `QuickJSContext.dump` gives it: an Error's name/message/stack, or any thrown value. */
function describe(error: unknown): { name: string; message: string; stack?: unknown } {
  if (error !== null && typeof error === 'object' && 'message' in error) {
    const { name, message, stack } = error as { name?: unknown; message?: unknown; stack?: unknown };
    return { name: typeof name === 'string' ? name : 'Error', message: String(message), stack };
  }
  if (typeof error === 'string') return { name: '', message: error };
  let text: string;
  try {
    text = JSON.stringify(error) ?? String(error);
  } catch {
    text = String(error);
  }
  return { name: '', message: text };
}

/** The failure for a run the host stopped. */
export function stoppedFailure(reason: StopReason, limits: ScriptLimits): ScriptFailure {
  switch (reason) {
    case 'cancelled':
      return { kind: 'cancelled', message: 'The script was cancelled.' };
    case 'memory':
      return { kind: 'memory', message: `The script used more than its ${mib(limits.memoryBytes)} MiB of memory.` };
    case 'timeout':
      return { kind: 'timeout', message: `The script used more than its ${limits.cpuMs} ms of CPU time.` };
  }
}

/**
 * The failure for an error the script's code raised: `compiling` is true when the engine reported it while
 * parsing (a syntax error), false when the script ran and threw (or its promise was rejected).
 */
export function errorFailure(error: unknown, compiling: boolean, limits: ScriptLimits): ScriptFailure {
  const { name, message, stack } = describe(error);
  const line = scriptLine(stack);
  const at = line !== undefined ? { line } : {};
  if (name === 'InternalError' && /out of memory/i.test(message)) return stoppedFailure('memory', limits);
  if (name === 'InternalError' && /stack overflow/i.test(message)) {
    return { kind: 'stack', message: 'The script recursed too deeply (stack overflow).', ...at };
  }
  if (compiling && name === 'SyntaxError') {
    return { kind: 'syntax', message: sentence(`The script has a syntax error: ${message}`), ...at };
  }
  const what = name === '' ? message : name === 'Error' ? message : `${name}: ${message}`;
  return { kind: 'thrown', message: sentence(`The script threw an error: ${what}`), ...at };
}

/** The failure for a result that is not JSON, or whose JSON is larger than allowed. */
export function outputFailure(problem: { notJson: string } | { bytes: number }, limits: ScriptLimits): ScriptFailure {
  if ('notJson' in problem)
    return { kind: 'output', message: sentence(`The script's result is not JSON: ${problem.notJson}`) };
  return {
    kind: 'output',
    message: `The script's result is ${problem.bytes} bytes of JSON, more than its ${limits.outputBytes}-byte limit.`,
  };
}
