/**
 * A small assert for tests inside VS Code: `node:assert` does not exist in the web-worker extension host.
 * Names and semantics follow `node:assert/strict`; failures carry actual/expected so mocha shows a diff.
 */

/** Thrown by every check here; mocha prints its diff from `actual` / `expected`. */
export class AssertionError extends Error {
  readonly showDiff: boolean;
  constructor(
    message: string,
    readonly actual?: unknown,
    readonly expected?: unknown,
  ) {
    super(message);
    this.name = 'AssertionError';
    this.showDiff = actual !== undefined || expected !== undefined;
  }
}

const show = (value: unknown): string => {
  try {
    return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
};

/** Fails unless `value` is truthy. */
export function ok(value: unknown, message?: string): asserts value {
  if (!value) throw new AssertionError(message ?? `expected a truthy value, got ${show(value)}`, value, true);
}

/** `Object.is` equality. */
export function equal<T>(actual: unknown, expected: T, message?: string): asserts actual is T {
  if (!Object.is(actual, expected)) {
    throw new AssertionError(message ?? `expected ${show(expected)}, got ${show(actual)}`, actual, expected);
  }
}

export function notEqual(actual: unknown, unexpected: unknown, message?: string): void {
  if (Object.is(actual, unexpected))
    throw new AssertionError(message ?? `expected anything but ${show(unexpected)}`, actual);
}

/** Structural equality: same prototypes, same own keys, `Object.is` on leaves. */
export function deepEqual<T>(actual: unknown, expected: T, message?: string): asserts actual is T {
  if (!isDeepEqual(actual, expected)) {
    throw new AssertionError(message ?? `expected ${show(expected)}, got ${show(actual)}`, actual, expected);
  }
}

export function match(text: string, pattern: RegExp, message?: string): void {
  if (!pattern.test(text))
    throw new AssertionError(message ?? `expected ${show(text)} to match ${pattern}`, text, pattern.source);
}

export function doesNotMatch(text: string, pattern: RegExp, message?: string): void {
  if (pattern.test(text)) throw new AssertionError(message ?? `expected ${show(text)} not to match ${pattern}`, text);
}

/** Awaits `action`, fails if it resolves, and returns the rejection (checked against `expected` when given). */
export async function rejects(
  action: Promise<unknown> | (() => Promise<unknown>),
  expected?: (new (...args: never[]) => Error) | RegExp | ((error: unknown) => boolean),
  message?: string,
): Promise<unknown> {
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (error) {
    if (expected && !matchesExpectation(error, expected)) {
      throw new AssertionError(message ?? `rejected with an unexpected error: ${String(error)}`, error);
    }
    return error;
  }
  throw new AssertionError(message ?? 'expected a rejection, but it resolved');
}

export function fail(message: string): never {
  throw new AssertionError(message);
}

function matchesExpectation(
  error: unknown,
  expected: (new (...args: never[]) => Error) | RegExp | ((error: unknown) => boolean),
): boolean {
  if (expected instanceof RegExp) return expected.test(error instanceof Error ? error.message : String(error));
  if (expected.prototype instanceof Error || expected === Error) return error instanceof (expected as new () => Error);
  return (expected as (error: unknown) => boolean)(error);
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  const recordA = a as Record<string, unknown>;
  const recordB = b as Record<string, unknown>;
  return keysA.every(key => Object.prototype.hasOwnProperty.call(b, key) && isDeepEqual(recordA[key], recordB[key]));
}
