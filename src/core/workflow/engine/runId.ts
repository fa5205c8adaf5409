/**
 * A deep-work run's id, `wf-{uuid}` (a `/plan` run, and workflow runs from before they had their own) or
 * `run-{uuid}` (any other workflow's run): the one definition every door checks against (the run state, the chat's
 * `/plan` and `/workflow` commands, the tools' input; package.json's tool schemas repeat it, tested equal).
 */
export const RUN_ID_PATTERN = '(?:wf|run)-[0-9a-fA-F-]{36}';

/** A whole string that is a run id. */
export const RUN_ID = new RegExp(`^${RUN_ID_PATTERN}$`);
