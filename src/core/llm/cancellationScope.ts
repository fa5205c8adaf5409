import type { CancellationSignal } from './languageModel';

/**
 * A cancellation signal that fires when its parent does or when `cancel()` is called:
 * lets a step abandon speculative work without cancelling the user's whole request.
 */
export class CancellationScope implements CancellationSignal {
  private cancelled = false;
  private readonly listeners = new Set<() => unknown>();
  private readonly parentSubscription: { dispose(): unknown };

  constructor(parent: CancellationSignal) {
    this.parentSubscription = parent.onCancellationRequested(() => this.cancel());
    if (parent.isCancellationRequested) this.cancel();
  }

  get isCancellationRequested(): boolean {
    return this.cancelled;
  }

  onCancellationRequested(listener: () => unknown): { dispose(): unknown } {
    if (this.cancelled) {
      listener();
      return { dispose() {} };
    }
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
    this.parentSubscription.dispose();
  }

  /** Stops listening to the parent without cancelling. */
  dispose(): void {
    this.parentSubscription.dispose();
    this.listeners.clear();
  }
}
