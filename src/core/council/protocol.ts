/**
 * How a council debates. `economy` spends few requests: selection and questions in one request,
 * later cycles only for personas still in disagreement, convergence read from the personas' own
 * stated agreements (no moderator request), a streamed final answer. `thorough` is the original
 * protocol: everyone speaks every cycle, a moderator request judges each cycle, the next cycle is
 * drafted while the moderator reads.
 */
export const DEBATE_PROTOCOLS = ['economy', 'thorough'] as const;
export type DebateProtocol = (typeof DEBATE_PROTOCOLS)[number];
