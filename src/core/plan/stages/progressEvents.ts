import type { HandoffFinding } from './handoffAudit';
import type { PipelineStage } from '../schemas/agentType';
import type { CollectorDecision } from '../schemas/consolidation';

/**
 * What one agent's reply (`reply`: the tool its model was asked for) went through: fixed before validation
 * (duplicate dropped, range ordered, dangling reference dropped, …); its tool schema refused by the provider (its
 * `message`), so the same schema is asked for as JSON in the reply (no repair spent); or not in its format and asked
 * for again (`attempt`: 2 or 3).
 */
type ReplyEvent = { readonly agentId: string; readonly reply: string } & (
  | { readonly kind: 'reply-normalized'; readonly changes: readonly string[] }
  | { readonly kind: 'tool-schema-refused'; readonly message: string }
  | { readonly kind: 'reply-retried'; readonly attempt: number }
);

/** What the pipeline reports while it runs, stage by stage (the VS Code layer turns these into progress messages). */
export type PipelineProgressEvent = { readonly stage: PipelineStage } & (
  | { readonly kind: 'delegated'; readonly agentIds: readonly string[] }
  | { readonly kind: 'agent-started'; readonly agentId: string; readonly attempt: number }
  | { readonly kind: 'agent-finished'; readonly agentId: string; readonly ok: boolean }
  | { readonly kind: 'collector-decided'; readonly decision: CollectorDecision }
  | { readonly kind: 'loop-detected'; readonly agentId: string; readonly repetitionCount: number }
  /** An agent's reply asked for its context to be rebuilt (spec 001 ContextManagerRoutingRequest). */
  | { readonly kind: 'context-requested'; readonly agentId: string; readonly reason: string }
  /** The context manager routed a rebuilt context `to` an agent type, or needs the user's answer. */
  | { readonly kind: 'context-manager'; readonly outcome: 'route'; readonly to: string }
  | { readonly kind: 'context-manager'; readonly outcome: 'ask_user' }
  | { readonly kind: 'limit-reached'; readonly message: string }
  | ReplyEvent
  /** The audit of an accepted handoff found errors (recorded with the pass; the run goes on). */
  | { readonly kind: 'handoff-audited'; readonly agentId: string; readonly findings: readonly HandoffFinding[] }
);

/** Receives progress events; must not throw. */
export type ProgressListener = (event: PipelineProgressEvent) => void;
