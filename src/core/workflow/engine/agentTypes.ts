import type { CancellationSignal, LanguageModel } from '../../llm/languageModel';
import type { WorkspaceReader } from '../../workspace/workspaceReader';
import type { PhaseDefinition, SubagentSpec } from '../definition/workflowDefinition';
import type { DeliverableContents } from './scriptHelpers';
import type { WorkflowContext } from './workflowContext';
import type { AgentAudit } from './workflowRunState';

/** Agent types' own bookkeeping in the run state, kept across phases and reloads (plain JSON). */
export interface Blackboard {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** What a subagent is given. */
export interface AgentCall {
  readonly spec: SubagentSpec;
  readonly phase: PhaseDefinition;
  readonly workflowName: string;
  /** A snapshot of the run's context (deliverables so far, checkpoints, …). */
  readonly context: WorkflowContext;
  /** Feedback the user typed at the last checkpoint, or the gaps a gap check found. */
  readonly feedback?: string;
  readonly blackboard: Blackboard;
  /** The model for this agent (the subagent's `config.model` when it names an available one). */
  readonly model: LanguageModel;
  readonly reader: WorkspaceReader;
  /** The run's files as written so far, by workspace-relative path (held by the engine: no file is read again). */
  readonly runFiles: DeliverableContents;
  readonly token: CancellationSignal;
}

export interface AgentResult {
  /** One or two sentences for progress and the phase summary. */
  readonly summary: string;
  /** Files it produced, by path relative to the run folder; the engine writes and records them. */
  readonly files: readonly { readonly path: string; readonly content: string }[];
  /**
   * Asks the engine to run again from the earliest phase that spawns `toType` (a collector routing back).
   * `rationale` becomes that phase's feedback. The engine alone decides: past the run's limit it refuses (and
   * says so) and the run goes on.
   */
  readonly routeBack?: { readonly toType: string; readonly rationale: string };
  /** What the agent's checks read (`checked` outputs) and found; the engine records it with the phase. */
  readonly audit?: AgentAudit;
}

/** A subagent type a workflow names by `type`. */
export interface AgentType {
  readonly type: string;
  run(call: AgentCall): Promise<AgentResult>;
}

/** The agent types a run can spawn, by name. */
export type AgentTypeRegistry = ReadonlyMap<string, AgentType>;

export function agentTypeRegistry(types: readonly AgentType[]): AgentTypeRegistry {
  return new Map(types.map(type => [type.type, type]));
}
