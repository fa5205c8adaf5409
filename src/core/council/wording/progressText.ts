/*
 * The transient "working on it" lines of a council turn (CouncilOutput.progress), worded in one place. They say
 * what the council is doing now; what it did is recorded and shown through sessionEventText.
 */

export const CHOOSING_COUNCIL_AND_QUESTIONS = 'Choosing the council and what to ask you…';
export const CHOOSING_COUNCIL = 'Choosing the council for this request…';
export const LOOKING_FOR_AMBIGUITY = 'Looking for what is ambiguous in the request…';
export const LOOKING_FOR_MORE_QUESTIONS = 'Looking for more questions…';
export const WRITING_ANSWER = 'Writing the consolidated answer…';

/** "A", "A and B", "A, B and C". */
function nameList(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function areThinking(names: readonly string[]): string {
  return `${nameList(names)} ${names.length === 1 ? 'is' : 'are'} thinking…`;
}

/** The economy protocol: cycle 1 is independent drafts, later cycles only those still in disagreement. */
export function economyCycleProgress(cycle: number, limit: number, names: readonly string[]): string {
  return cycle === 1
    ? `Independent drafts: ${areThinking(names)}`
    : `Debate cycle ${cycle} of at most ${limit}, for those still in disagreement: ${areThinking(names)}`;
}

/** The thorough protocol: every persona speaks in every cycle. */
export function thoroughCycleProgress(cycle: number, limit: number, names: readonly string[]): string {
  return `Debate cycle ${cycle} of at most ${limit}: ${areThinking(names)}`;
}

export function moderatorReading(cycle: number): string {
  return `Moderator is reading cycle ${cycle}…`;
}

/** Without a debate, the personas answer directly. */
export function concluding(names: readonly string[]): string {
  return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} concluding…`;
}

/** After the first vote the rest of the debate is much more certain: the re-forecast, with its bound. */
export function afterFirstVoteForecast(agreed: boolean, forecast: string): string {
  return `${agreed ? 'The first drafts agree' : 'The first drafts differ'}: the debate now expects ${forecast}.`;
}
