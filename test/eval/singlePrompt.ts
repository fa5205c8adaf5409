import type { Decision } from './decisions';

/**
 * The single prompt the council is measured against: the same question and context, asked once, with the same
 * expectations the rubric checks (a fair baseline, not a strawman).
 */
export function singlePrompt(decision: Decision): string {
  return [
    'You are an experienced software engineer advising a team. Answer their question with one clear recommendation,',
    'the reasons and trade-offs that decide it, the assumptions it rests on, what would change it, and concrete next steps.',
    '',
    `Question: ${decision.question}`,
    '',
    `What the team told you: ${decision.context}`,
  ].join('\n');
}

/** The marker a report line starts with in the test output (base64, so the host's log cannot reflow it). */
export const EVAL_REPORT_MARKER = 'COUNCIL-EVAL-REPORT:';
