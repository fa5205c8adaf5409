import { z } from 'zod';
import { ContextId } from '../schemas/contextId';

/** How an agent invocation ended: with its output, or with an error (never both, never neither). */
const InvocationOutcomeSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('succeeded'), output: z.json() }),
  z.object({
    status: z.literal('failed'),
    error: z.object({ message: z.string().min(1), kind: z.string().min(1).optional() }),
  }),
]);

/** One agent invocation on the blackboard (spec 001 BlackboardHistory.Entry); immutable once appended. */
export const HistoryItemSchema = z.object({
  itemId: z.string().min(1),
  agentType: z.string().min(1),
  agentId: z.string().min(1),
  /** What the agent did, e.g. `discover`, `consolidate`, `plan-tickets`. */
  action: z.string().min(1),
  /** Name of the request type the agent was given, e.g. `DiscoveryAgentRequest`. */
  inputType: z.string().min(1),
  input: z.json(),
  outcome: InvocationOutcomeSchema,
  /**
   * Context id (spec 000) of the result this invocation produced, if any. Its parts (run id, agent type, sequence
   * >= 1, instant) are checked where a stored run's history is read back, as the board's ids are.
   */
  contextId: ContextId.optional(),
  /** Context ids this invocation was given as upstream context; they link items into chains. */
  upstreamContextIds: z.array(ContextId),
  startedAt: z.iso.datetime({ offset: true }),
  endedAt: z.iso.datetime({ offset: true }),
  durationMs: z.number().int().min(0),
});
export type HistoryItem = z.infer<typeof HistoryItemSchema>;

/** A run's history (spec 001 BlackboardHistory), validated once when a stored run is read back. */
export const RunHistory = z.array(HistoryItemSchema);

/** An annotation on history items (spec 001 HistoryNote), e.g. the context manager marking attempts to ignore. */
export const HistoryNoteSchema = z.object({
  noteId: z.string().min(1),
  timestamp: z.iso.datetime({ offset: true }),
  content: z.string().min(1),
  /** e.g. `exclusion`, `diagnostic`, `routing`. */
  tags: z.array(z.string().min(1)),
  authorAgent: z.string().min(1),
  /** The items it annotates. */
  itemIds: z.array(z.string().min(1)).min(1),
});
export type HistoryNote = z.infer<typeof HistoryNoteSchema>;

/** A run's notes, validated once when a stored run is read back. */
export const RunHistoryNotes = z.array(HistoryNoteSchema);

/** Everything recorded for one run, in append order: what the history tools and the context manager read. */
export interface HistorySnapshot {
  readonly items: readonly HistoryItem[];
  /** Notes on the items, in the order they were added. */
  readonly notes?: readonly HistoryNote[];
}
