import { z } from 'zod';

/** An earlier architecture decision record the council was given as precedent. */
const EarlierDecision = z.object({
  /** Workspace-relative path of the record. */
  path: z.string(),
  number: z.number().int(),
  title: z.string(),
  /** Lower-case status word ("accepted", "proposed", …). */
  status: z.string(),
});
export type EarlierDecision = z.infer<typeof EarlierDecision>;

/**
 * The team's earlier decisions that bear on the request, found once when the session opens (no model request) and
 * stored with its input, so every later turn and replay shows the council the same records.
 */
export const SessionPrecedent = z.object({
  records: z.array(EarlierDecision),
  /** The prompt text: each record fenced as untrusted data, bounded in tokens. */
  prompt: z.string(),
});
export type SessionPrecedent = z.infer<typeof SessionPrecedent>;
