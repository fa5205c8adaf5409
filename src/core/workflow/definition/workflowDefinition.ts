/**
 * A workflow (spec 002) as the engine runs it: parsed from YAML, validated, every phase's execution mode
 * resolved and its agents in the one shape that mode allows. `parseWorkflow.ts` produces it.
 */

import type { z } from 'zod';
import type { EXECUTION_MODES, GAP_ACTIONS, SubagentConfigSchema } from './workflowSchema';

export type ExecutionMode = (typeof EXECUTION_MODES)[number];

/** Where a definition came from, for messages ("…/.council/workflows/review.yaml, phase `scan`"). */
export interface WorkflowSource {
  readonly kind: 'built-in' | 'workspace';
  /** Shown to the user: a workspace-relative path, or `built-in plan.yaml`. */
  readonly path: string;
  /** A workspace workflow that replaces a built-in of the same name: the built-in's path. */
  readonly overrides?: string;
}

/** A subagent to spawn (spec 002 "Subagent Config Schema"); `config` keeps unknown keys for the agent type. */
export interface SubagentSpec {
  readonly type: string;
  /** The file's config, with any other key the agent type reads (e.g. `focus`). */
  readonly config: Readonly<z.output<typeof SubagentConfigSchema>>;
}

/** The agents of a phase, in the one shape its execution mode allows. */
export type PhaseAgents =
  | {
      readonly mode: 'strict';
      readonly behavior: 'parallel' | 'sequential';
      readonly subagents: readonly SubagentSpec[];
    }
  | { readonly mode: 'strict'; readonly behavior: 'main-only'; readonly mainScript: string }
  | {
      readonly mode: 'loose';
      readonly behavior: 'main-only';
      readonly mainScript: string;
      readonly suggestedSubagents: readonly string[];
    }
  | {
      readonly mode: 'adaptive';
      readonly behavior: 'parallel' | 'sequential';
      readonly always: readonly SubagentSpec[];
      /** Returns more subagents (an array of SubagentSpec-shaped objects). */
      readonly adaptiveScript?: string;
    };

/** What a checkpoint option does (spec 002 "Checkpoint Schema"). */
export type CheckpointAction =
  | { readonly action: 'continue' }
  /** `target` is a phase id; `current` is resolved to the checkpoint's own phase by the parser. */
  | { readonly action: 'repeat_phase'; readonly target: string }
  | { readonly action: 'skip_phases'; readonly phases: readonly string[] }
  | { readonly action: 'abort' };

export interface CheckpointOption {
  readonly label: string;
  /** The user's typed feedback is recorded and given to the next phase. */
  readonly withFeedback: boolean;
  readonly onSelect: CheckpointAction;
}

export type CheckpointDefinition =
  /** `approval_required: true`: Continue / Redo phase / Abort. */
  | { readonly kind: 'approval' }
  | {
      readonly kind: 'custom';
      /** A JS expression over `context`; the checkpoint is shown only when true. */
      readonly condition?: string;
      readonly prompt: string;
      /** Templated paths (`{{output_dir}}/plan.md`). */
      readonly showFiles: readonly string[];
      readonly options: readonly CheckpointOption[];
    };

export type GapAction = (typeof GAP_ACTIONS)[number];

export type GapCheckDefinition =
  | { readonly kind: 'script'; readonly maxIterations: number; readonly script: string }
  | {
      readonly kind: 'criteria';
      readonly maxIterations: number;
      readonly criteria: readonly { readonly name: string; readonly check: string }[];
      readonly onFailure: {
        readonly action: GapAction;
        readonly message?: string;
        readonly additionalAgents: readonly SubagentSpec[];
      };
    };

export interface SkillInvocation {
  readonly name: string;
  /** A JS expression over `context`; the skill runs only when true. */
  readonly condition?: string;
  /** Templated (`{{output_dir}}`, `{{phase_id}}`, `{{workflow_name}}`). */
  readonly args: readonly string[];
}

export interface PhaseDefinition {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly agents: PhaseAgents;
  /** Main script of a parallel/sequential strict phase, run after its subagents (optional). */
  readonly mainScript?: string;
  readonly checkpoint?: CheckpointDefinition;
  /** Absent when the YAML has none or says `enabled: false`. */
  readonly gapCheck?: GapCheckDefinition;
  readonly skills: readonly SkillInvocation[];
  /** 1-based line of the phase in its file, for messages. */
  readonly line?: number;
}

export interface WorkflowDefinition {
  readonly name: string;
  readonly description: string;
  readonly executionMode: ExecutionMode;
  readonly phases: readonly PhaseDefinition[];
  readonly finalization?: { readonly template: string; readonly output: string };
  readonly source: WorkflowSource;
}

/** One problem in a workflow file: where it is and what to change. */
export interface WorkflowIssue {
  /** e.g. `phases[1].subagents` */
  readonly field: string;
  /** 1-based; absent when the problem has no place (an empty file). */
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

export type WorkflowParse =
  | { readonly ok: true; readonly workflow: WorkflowDefinition }
  | { readonly ok: false; readonly source: WorkflowSource; readonly issues: readonly WorkflowIssue[] };

/** `path:line: field: message` lines, the way the user sees a rejected file. */
export function describeIssues(source: WorkflowSource, issues: readonly WorkflowIssue[]): string {
  return issues
    .map(issue => `${source.path}${issue.line ? `:${issue.line}` : ''}: \`${issue.field}\`: ${issue.message}`)
    .join('\n');
}

/** The `repeat_phase` target that means the checkpoint's own phase; no phase may have it as its id. */
export const CURRENT_PHASE = 'current';
