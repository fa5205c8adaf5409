/*
 * How a refusal tells a person to raise the limit that stopped the work, and how to go on. The core names the limit;
 * each door says how it is raised there: VS Code by a setting, the `council` command by its config file.
 */

/** A limit a person may be told to raise. */
export type RaisableLimit =
  | 'sessionCredits'
  | 'sessionRequests'
  | 'runCredits'
  | 'runRequests'
  | 'scriptModelCalls'
  | 'scriptTokens'
  | 'scriptHostCalls';

/** What a limit stopped: a council session's turn, a deep-work run, or a script inside a run. */
export type LimitedWork = 'session' | 'run' | 'script';

export interface LimitAdvice {
  /**
   * How to raise `limit` here, as a clause starting with a verb ("raise `council.budget.maxCredits` in the settings");
   * undefined when this door offers no way to raise it.
   */
  raise(limit: RaisableLimit): string | undefined;
  /** What to do once it is raised, as a clause ("press Try again to continue where it stopped"). */
  goOn(work: LimitedWork): string;
}

/** VS Code's setting for each limit. */
const SETTINGS: Readonly<Record<RaisableLimit, string>> = {
  sessionCredits: 'council.budget.maxCredits',
  sessionRequests: 'council.budget.maxRequests',
  runCredits: 'council.budget.runMaxCredits',
  runRequests: 'council.budget.runMaxRequests',
  scriptModelCalls: 'council.budget.scriptMaxModelCalls',
  scriptTokens: 'council.budget.scriptMaxTokens',
  scriptHostCalls: 'council.budget.scriptMaxHostCalls',
};

/** VS Code's advice: each limit is a setting, and Try again goes on. The default where a door gives none. */
export const SETTINGS_ADVICE: LimitAdvice = {
  raise: limit => `raise \`${SETTINGS[limit]}\` in the settings`,
  goOn: work => (work === 'script' ? 'resume the run' : 'press Try again to continue where it stopped'),
};

/** `clause` as the start of a sentence. */
export function sentenceStart(clause: string): string {
  return `${clause.charAt(0).toUpperCase()}${clause.slice(1)}`;
}
