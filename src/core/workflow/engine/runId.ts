/**
 * A deep-work run's id, `wf-{uuid}`: the one definition every door checks against (the run state, the chat's
 * `/plan` and `/workflow` commands, the tools' input; package.json's tool schemas repeat it, tested equal).
 */
export const RUN_ID_PATTERN = 'wf-[0-9a-fA-F-]{36}';

/** A whole string that is a run id. */
export const RUN_ID = new RegExp(`^${RUN_ID_PATTERN}$`);
