/**
 * What a user can do next, after a council turn or a deep-work run step: one typed list, decided in the core from the
 * session's or the run's state (core/council/sessionNextSteps.ts, core/deepWork/runNextSteps.ts), and rendered by
 * each door its own way: buttons and slash commands in the chat (vscode/chat/chatNextSteps.ts), exact next calls in a
 * tool result, VS Code's or MCP's (core/council/toolNextCalls.ts), commands in a terminal (cli/cliNextSteps.ts).
 * Each step has one name here; a door's words for it (`/retry`, "Try again", `"action": "retry"`, `/plan resume`)
 * are that door's rendering.
 *
 * To add a step: add its kind to {@link NextStep} (with what a door needs to show it), offer it where the session's
 * or run's state allows it (the two deciders above), then follow the compile errors: every door renders steps with
 * an exhaustive switch (`const _: never = step`), so each door that does not show the new step yet fails to build.
 * If the chat offers it as a slash command, add the command to SLASH (core/council/chatIntent.ts) and to package.json.
 */

/** A run's command: `/plan` (the built-in plan workflow and its presenter) or `/workflow` (any workflow file). */
export type RunCommand = 'plan' | 'workflow';

/** The run a step continues. */
export interface RunRef {
  readonly runId: string;
  readonly command: RunCommand;
}

/** What an option of a checkpoint does, by kind (the workflow file's `on_select.action`). */
export type CheckpointAction = 'continue' | 'redo' | 'skip' | 'abort';

/** One option a paused run offers at its checkpoint. */
export interface CheckpointChoice {
  /** Its number, from 1, in the workflow file's order: how every door picks it. */
  readonly option: number;
  /** The workflow file's label ("Continue", "Redo Discovery"). */
  readonly label: string;
  readonly action: CheckpointAction;
  /** Whether the user may add feedback for the next phase with it. */
  readonly takesFeedback: boolean;
}

/** One thing the user can do next. */
export type NextStep =
  /** Answer the session's open clarifying question (in their own words). */
  | { readonly kind: 'answer'; readonly sessionId: string; readonly questionId: string }
  /** Take the open question's recommended answer. */
  | { readonly kind: 'accept'; readonly sessionId: string }
  /** Skip the open question (its recommended answer becomes a logged assumption). */
  | { readonly kind: 'skip'; readonly sessionId: string }
  /** Skip every remaining question and go on to the debate. */
  | { readonly kind: 'skipAll'; readonly sessionId: string }
  /** Ask the council for more clarifying questions. */
  | { readonly kind: 'more'; readonly sessionId: string }
  /** Reopen the questions that were skipped. */
  | { readonly kind: 'revisit'; readonly sessionId: string }
  /** Debate further cycles on a finished session. */
  | { readonly kind: 'extend'; readonly sessionId: string }
  /**
   * Go on from where a session's turn or a run stopped, repeating nothing: after a failure ("Try again") or after a
   * stop, a question or an abort that can be undone ("Resume").
   */
  | {
      readonly kind: 'retry';
      readonly of: { readonly sessionId: string } | { readonly run: RunRef };
      readonly after: 'failure' | 'stop';
    }
  /** Pick an option at a paused run's checkpoint. */
  | { readonly kind: 'choose'; readonly run: RunRef; readonly choice: CheckpointChoice }
  /**
   * Write a completed session's decision as a record in the team's decision folder (after the user confirms);
   * `supersedes`: the accepted record the decision goes against, which the new record supersedes.
   */
  | {
      readonly kind: 'record';
      readonly sessionId: string;
      readonly supersedes?: { readonly path: string; readonly number: number };
    }
  /** Turn a completed session's answer into a `/plan` run. */
  | { readonly kind: 'planThis'; readonly sessionId: string }
  /** Read the session's assumption log. */
  | { readonly kind: 'assumptions'; readonly sessionId: string }
  /** Start a new session. */
  | { readonly kind: 'new' };

export type NextStepKind = NextStep['kind'];
