/**
 * Repairs one structured reply may take: the reply's one repair loop (requestStructured) asks again at most this
 * often, so a reply costs at most 1 + MAX_REPAIRS_PER_REPLY requests (a /plan handoff is audited, never repaired).
 */
export const MAX_REPAIRS_PER_REPLY = 2;
