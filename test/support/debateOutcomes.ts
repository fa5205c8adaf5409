import type { DebateOutcome } from '../../src/core/council/debateOutcome';

/** A finished economy debate of 4 seats that agreed at the first vote (figures as the bench measures them), changed by `over`. */
export function debateOutcome(over: Partial<DebateOutcome> = {}): DebateOutcome {
  return {
    protocol: 'economy',
    seats: 4,
    ending: { kind: 'first-vote' },
    drafts: 4,
    laterCycles: 0,
    answer: 1,
    inputTokens: 8_000,
    outputTokens: 2_400,
    ...over,
  };
}
