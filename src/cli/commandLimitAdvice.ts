import type { LimitAdvice, LimitedWork, RaisableLimit } from '../core/llm/spending/limitAdvice';

/*
 * How the `council` command (and `council mcp`, configured by the same file) says to raise a limit: a session's limits
 * are the config file's `limits`; a run's and a script's limits are fixed in the command, so it names no way to raise
 * them. Going on is a command here, not a button.
 */

/** The config field that raises each limit the config file has. */
const CONFIG_FIELDS: Partial<Record<RaisableLimit, string>> = {
  sessionCredits: 'limits.maxDollars',
  sessionRequests: 'limits.maxRequests',
};

/** How to go on: a session's limit is per run of the command; a run's is for the whole run (resuming cannot help). */
const GO_ON: Readonly<Record<LimitedWork, string>> = {
  session: 'go on with `council retry <session id>` (each run of the command may make its own requests)',
  run: "a run's limits are fixed in the command, so start a narrower run",
  script: 'resume the run with `--run <run id> --action resume`',
};

/** The command's advice; `configFile`: the file the models came from (else the project's, to be written). */
export function commandLimitAdvice(configFile: string | undefined): LimitAdvice {
  const file = configFile ?? '.council/config.json';
  return {
    raise: limit => {
      const field = CONFIG_FIELDS[limit];
      return field ? `raise \`${field}\` in ${file}` : undefined;
    },
    goOn: work => GO_ON[work],
  };
}
