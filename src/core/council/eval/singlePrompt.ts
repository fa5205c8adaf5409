import type { Decision } from './decisions';

/** How the single prompt starts (the demo model knows the step by it). */
export const SINGLE_PROMPT_OPENING = 'You are an experienced software engineer advising a team.';

/**
 * The single prompt the council is measured against: the same question and context, asked once, with the same
 * expectations the rubric checks (a fair baseline, not a strawman).
 */
export function singlePrompt(decision: Decision): string {
  return [
    `${SINGLE_PROMPT_OPENING} Answer their question with one clear recommendation,`,
    'the reasons and trade-offs that decide it, the assumptions it rests on, what would change it, and concrete next steps.',
    '',
    `Question: ${decision.question}`,
    '',
    `What the team told you: ${decision.context}`,
  ].join('\n');
}
