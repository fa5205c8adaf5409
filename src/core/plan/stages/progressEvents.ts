import type { HandoffFinding } from './handoffAudit';
import type { PipelineStage } from '../schemas/agentType';
import type { CollectorDecision } from '../schemas/consolidation';

/** What the pipeline reports while it runs (the VS Code layer turns these into progress messages). */
export type PipelineProgressEvent =
  | { readonly kind: 'delegated'; readonly stage: PipelineStage; readonly agentIds: readonly string[] }
  | {
      readonly kind: 'agent-started';
      readonly stage: PipelineStage;
      readonly agentId: string;
      readonly attempt: number;
    }
  | { readonly kind: 'agent-finished'; readonly stage: PipelineStage; readonly agentId: string; readonly ok: boolean }
  | { readonly kind: 'collector-decided'; readonly stage: PipelineStage; readonly decision: CollectorDecision }
  | {
      readonly kind: 'loop-detected';
      readonly stage: PipelineStage;
      readonly agentId: string;
      readonly repetitionCount: number;
    }
  | { readonly kind: 'context-manager'; readonly stage: PipelineStage; readonly outcome: 'route' | 'ask_user' }
  | { readonly kind: 'limit-reached'; readonly stage: PipelineStage; readonly message: string }
  /** A model reply was fixed before validation (duplicate dropped, range ordered, dangling reference dropped, …). */
  | {
      readonly kind: 'reply-normalized';
      readonly stage: PipelineStage;
      readonly agentId: string;
      readonly reply: string;
      readonly changes: readonly string[];
    }
  /** The provider refused the reply's tool schema; the same schema is asked for as JSON in the reply (no repair spent). */
  | {
      readonly kind: 'tool-schema-refused';
      readonly stage: PipelineStage;
      readonly agentId: string;
      readonly reply: string;
      /** The provider's message. */
      readonly message: string;
    }
  /** A reply did not match its format and is being asked for again (`attempt`: 2 or 3). */
  | {
      readonly kind: 'reply-retried';
      readonly stage: PipelineStage;
      readonly agentId: string;
      readonly reply: string;
      readonly attempt: number;
    }
  | {
      /** The audit of an accepted handoff found errors (recorded with the pass; the run goes on). */
      readonly kind: 'handoff-audited';
      readonly stage: PipelineStage;
      readonly agentId: string;
      readonly findings: readonly HandoffFinding[];
    };

/** Receives progress events; must not throw. */
export type ProgressListener = (event: PipelineProgressEvent) => void;
