import { z } from 'zod';

/*
 * The opening's read of how far apart the council will start: the one thing known before any draft that tells a
 * debate settled at its first vote from one that runs to its limit, so the forecast shown before the debate can say
 * which it expects (debatePlan's `expectDebate`) instead of one figure for every debate.
 */

/** How far apart the personas' first drafts will likely be. */
export const DEBATE_OUTLOOKS = ['agree', 'debate', 'standoff'] as const;
export type DebateOutlook = (typeof DEBATE_OUTLOOKS)[number];

/** The field the opening (and persona selection) reply carries; optional, so a model that omits it costs no repair. */
export const outlookField = z
  .enum(DEBATE_OUTLOOKS)
  .optional()
  .describe(
    'How far apart these personas will likely start: "agree" when one answer is clearly right or their concerns do not conflict; "debate" when they would start apart but evidence can settle it; "standoff" when it turns on values or trade-offs that experts keep weighing differently.',
  );

/** How the forecast words a read, after "the council's first read: ". */
export function outlookWords(outlook: DebateOutlook): string {
  switch (outlook) {
    case 'agree':
      return 'its first drafts will likely agree';
    case 'debate':
      return 'it will likely start apart and settle in a later cycle';
    case 'standoff':
      return 'a standoff, likely to run to its limit';
  }
}
