import { z } from 'zod';
import type { HistoryItem, HistorySnapshot } from '../historyItem';

/** Filters combine with AND; with none, every item matches. */
export const HistoryTraceRequestSchema = z.object({
  agentType: z.string().min(1).optional().describe('Only items of this agent type.'),
  agentId: z.string().min(1).optional().describe('Only items of this agent instance.'),
  action: z.string().min(1).optional().describe('Only items of this action.'),
  contextId: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Only the chain that produced this context id: its producer and, transitively, the producers of its upstream contexts.',
    ),
  limit: z.number().int().min(1).max(100).default(50).describe('At most this many items, the most recent ones.'),
});
export type HistoryTraceRequest = z.output<typeof HistoryTraceRequestSchema>;

/** Matching items, oldest first (spec 001 HistoryTraceResponse). */
export interface HistoryTraceResponse {
  readonly entries: HistoryItem[];
  /** How many items matched before `limit` cut the oldest ones. */
  readonly total: number;
}

function contextChain(items: readonly HistoryItem[], contextId: string): ReadonlySet<string> {
  const chain = new Set<string>();
  const pending = [contextId];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (chain.has(id)) continue;
    chain.add(id);
    for (const item of items) if (item.contextId === id) pending.push(...item.upstreamContextIds);
  }
  return chain;
}

/** Items of one agent / action, or the chain of invocations behind one context id, in history order. */
export function traceHistory(history: HistorySnapshot, request: HistoryTraceRequest): HistoryTraceResponse {
  const { agentType, agentId, action, contextId, limit } = request;
  const chain = contextId === undefined ? undefined : contextChain(history.items, contextId);
  const matches = history.items.filter(
    item =>
      (agentType === undefined || item.agentType === agentType) &&
      (agentId === undefined || item.agentId === agentId) &&
      (action === undefined || item.action === action) &&
      (chain === undefined || (item.contextId !== undefined && chain.has(item.contextId))),
  );
  return { entries: matches.slice(-limit), total: matches.length };
}
