import { CancellationScope } from './cancellationScope';
import { CancelledError, throwIfCancelled, type CancellationSignal } from './languageModel';

/**
 * Runs `work` for every item with at most `limit` at once, results in item order. The first failure cancels
 * the others (they stop at their next model call with CancelledError) and is rethrown once all have settled;
 * cancellation of `token` rethrows CancelledError.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  token: CancellationSignal,
  work: (item: T, token: CancellationSignal, index: number) => Promise<R>,
): Promise<R[]> {
  throwIfCancelled(token);
  const scope = new CancellationScope(token);
  const results: R[] = new Array(items.length);
  let next = 0;
  let firstError: unknown;
  const worker = async (): Promise<void> => {
    while (next < items.length && !scope.isCancellationRequested) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T, scope, index);
      } catch (error) {
        if (firstError === undefined || (firstError instanceof CancelledError && !(error instanceof CancelledError)))
          firstError = error;
        scope.cancel();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  } finally {
    scope.dispose();
  }
  if (token.isCancellationRequested) throw new CancelledError();
  if (firstError !== undefined) throw firstError;
  return results;
}
