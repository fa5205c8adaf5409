import type { CancellationSignal } from '../core/llm/languageModel';

/*
 * Ctrl+C in the `council` command: the first stops the spending (the session's cancellation token fires, the step in
 * flight is aborted, the session is saved as it stands); a second exits at once. A terminal prompt in raw mode gets
 * Ctrl+C as a key rather than a signal, so prompts call `press` for it too.
 */

export interface Interrupt {
  /** Fired by the first Ctrl+C. */
  readonly token: CancellationSignal;
  /** Aborted with the token: a prompt waiting for a reply gives up. */
  readonly signal: AbortSignal;
  /** A Ctrl+C (from the signal handler or from a prompt). */
  press(): void;
  /** Stops listening for SIGINT. */
  dispose(): void;
}

/** Exit code of a process ended by SIGINT (128 + 2). */
const SIGINT_EXIT = 130;

/** Listens for Ctrl+C until disposed; `say` tells the person what the first one did. */
export function interruptOnCtrlC(say: (text: string) => void, exit: (code: number) => never = process.exit): Interrupt {
  const abort = new AbortController();
  const press = () => {
    if (abort.signal.aborted) {
      say('Stopped at once (second Ctrl+C).');
      exit(SIGINT_EXIT);
    }
    say('Stopping: no further model request will be sent (Ctrl+C again to quit at once)…');
    abort.abort();
  };
  process.on('SIGINT', press);
  return {
    token: {
      get isCancellationRequested() {
        return abort.signal.aborted;
      },
      onCancellationRequested(listener) {
        const run = () => listener();
        abort.signal.addEventListener('abort', run, { once: true });
        return { dispose: () => abort.signal.removeEventListener('abort', run) };
      },
    },
    signal: abort.signal,
    press,
    dispose: () => process.off('SIGINT', press),
  };
}
