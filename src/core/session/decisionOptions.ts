import { z } from 'zod';
import { NonBlankText } from './primitives';

/*
 * The decision's options: a few labelled, mutually exclusive choices the opening names, so that independent first
 * drafts can be compared (each backs one label) and the council can answer at once when they all back the same one.
 */

/** The labels an option may carry, in order (numbers: colleagues' positions are lettered, Position A, B…). */
export const OPTION_LABELS = ['1', '2', '3', '4'] as const;

/** What a draft backs when none of the named options fits. */
export const OTHER_OPTION = 'another answer';

/** One of the decision's options, as the session stores it. */
export const DecisionOption = z.object({
  label: z.enum(OPTION_LABELS),
  option: NonBlankText,
});
export type DecisionOption = z.infer<typeof DecisionOption>;
