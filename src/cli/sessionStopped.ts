import { CouncilStepRejected } from '../core/council/councilTurn';
import { CancelledError, LanguageModelFailure } from '../core/llm/languageModel';

/*
 * What the `council` command says when a session stopped before its answer: what happened, that the session is saved
 * (every step is saved as it completes), and the command that goes on from there. The chat's wording for the same
 * failures points at VS Code's buttons and settings, so the terminal has its own.
 */

/** Why the session stopped and what to do before going on; undefined: nothing needs doing first. */
function whatHappened(stopped: unknown): { readonly what: string; readonly todo?: string } {
  if (stopped instanceof CancelledError || (stopped instanceof LanguageModelFailure && stopped.kind === 'cancelled'))
    return { what: 'Stopped with Ctrl+C: no further model request was sent.' };
  if (stopped instanceof CouncilStepRejected)
    return { what: `Council could not record a step (this is Council's bug, not yours): ${stopped.message}` };
  if (!(stopped instanceof LanguageModelFailure))
    return { what: `The session stopped: ${stopped instanceof Error ? stopped.message : String(stopped)}` };
  switch (stopped.kind) {
    case 'noPermissions':
      return { what: stopped.message, todo: 'Set a key the endpoint accepts' };
    case 'rateLimited':
      return {
        what: stopped.message,
        todo: stopped.retryAfterSeconds ? `Wait ${stopped.retryAfterSeconds} seconds` : 'Wait a little',
      };
    case 'quotaExceeded':
      return {
        what: stopped.message,
        todo: "Add credit to the endpoint's account, or pick another model with --model",
      };
    case 'malformedReply':
      return { what: `The model's reply could not be read, even after asking it to repair it: ${stopped.message}` };
    case 'budgetSpent':
      // The refusal names the limit and how to raise it in the command's words (commandLimitAdvice).
      return { what: stopped.message };
    case 'tooLarge':
      return { what: stopped.message, todo: 'Pick a model with a larger context window (--model)' };
    case 'unknown':
      return {
        what: `${stopped.message} (the connection dropped, or the endpoint failed)`,
        todo: 'Check that the endpoint is reachable',
      };
    default:
      return { what: stopped.message };
  }
}

/** The lines printed when a session stopped before its answer. */
export function sessionStoppedText(stopped: unknown, sessionId: string, file: string): string {
  const { what, todo } = whatHappened(stopped);
  return (
    `\n${what}\nThe session is saved: ${file}\n` +
    `${todo ? `${todo}, then go on` : 'Go on'} from where it stopped (nothing done is repeated):\n  council retry ${sessionId}\n`
  );
}
