import { z } from 'zod';
import { CHECKPOINT_ACTIONS, EXECUTION_MODES } from '../definition/workflowSchema';

/**
 * The runtime context of a workflow run, exactly spec 002's "Context Schema" and records (snake_case, as
 * scripts read it through `context`). It is saved after every phase and is what a resumed run continues from.
 */

const Iso = z.iso.datetime();

/** A file a phase produced (spec 002 "Deliverable Record"); `timestamp` is the Context Schema's name for `created_at`. */
const DeliverableRecord = z.object({
  phase: z.string(),
  subagent: z.string(),
  /** Workspace-relative path under the run's output folder. */
  path: z.string(),
  size_bytes: z.number().int().min(0),
  created_at: Iso,
  timestamp: Iso,
});

/** A decision at a checkpoint (spec 002 "Checkpoint Record"). */
const CheckpointRecord = z.object({
  phase: z.string(),
  decision: z.enum(CHECKPOINT_ACTIONS),
  /** The option the user chose. */
  label: z.string().optional(),
  skipped: z.array(z.string()).optional(),
  feedback: z.string().optional(),
  timestamp: Iso,
});

/** One gap-check evaluation (spec 002 "Gap Check Record"). */
const GapCheckRecord = z.object({
  phase: z.string(),
  iteration: z.number().int().min(1),
  status: z.enum(['complete', 'incomplete']),
  /** Attempts so far (the Context Schema's `attempts`, equal to `iteration`). */
  attempts: z.number().int().min(1),
  gaps: z.array(z.string()),
  action_taken: z.enum(['none', 'retry', 'spawn_additional', 'escalate', 'abort', 'gave_up']),
  agents_spawned: z.array(z.string()),
  timestamp: Iso,
});

export const WorkflowContext = z.object({
  workflow: z.object({ name: z.string(), started_at: Iso, execution_mode: z.enum(EXECUTION_MODES) }),
  feature: z.object({ name: z.string(), flags: z.array(z.string()) }),
  /** What the user asked for (Council's addition: every agent and script needs it). */
  goal: z.string(),
  /** Where this run writes its files (`{{output_dir}}`). */
  output_dir: z.string(),
  phases: z.object({
    current: z.string().nullable(),
    completed: z.array(z.string()),
    iteration_counts: z.record(z.string(), z.number().int().min(0)),
  }),
  subagents_spawned: z.number().int().min(0),
  deliverables: z.array(DeliverableRecord),
  checkpoints: z.array(CheckpointRecord),
  skip_phases: z.array(z.string()),
  gap_checks: z.array(GapCheckRecord),
});
export type WorkflowContext = z.infer<typeof WorkflowContext>;
