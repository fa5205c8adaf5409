import type { DebateOutlook } from '../session/debateOutlook';
import type { DebateProtocol } from './protocol';

/* What one finished debate spent: the record the workspace's debate history keeps (debateHistory.ts). */

/** How a debate ended: its drafts agreed at the first vote, it settled in a later cycle, or it ran to its bound. */
export type DebateEnding =
  { readonly kind: 'first-vote' } | { readonly kind: 'settled'; readonly cycle: number } | { readonly kind: 'limit' };

/** One finished debate, as spent (the debate only: from the first drafts to the answer). */
export interface DebateOutcome {
  readonly protocol: DebateProtocol;
  /** The opening's read of how far apart the council would start (absent without one, and in older records). */
  readonly outlook?: DebateOutlook;
  /** Personas seated in the first cycle. */
  readonly seats: number;
  readonly ending: DebateEnding;
  /** Requests of cycle 1, of the cycles after it, and of the answer. */
  readonly drafts: number;
  readonly laterCycles: number;
  readonly answer: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}
