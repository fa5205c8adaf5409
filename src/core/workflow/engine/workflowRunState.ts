import { z } from 'zod';
import { SpendingLedger, SpendingLedgerSchema, type SpendTotals } from '../../llm/spending/ledger';
import { WorkflowContext } from './workflowContext';
import { RUN_ID } from './runId';

/** A checkpoint waiting for the user: what the chat shows, and what each button does. Survives a reload. */
export const PendingCheckpoint = z.object({
  phase: z.string(),
  /** `checkpoint` (the phase's own) or `gap_check` (an escalated gap check). */
  origin: z.enum(['checkpoint', 'gap_check']),
  prompt: z.string(),
  /** Templated paths already resolved, to link in chat. */
  files: z.array(z.string()),
  options: z.array(
    z.object({
      label: z.string(),
      withFeedback: z.boolean(),
      onSelect: z.discriminatedUnion('action', [
        z.object({ action: z.literal('continue') }),
        z.object({ action: z.literal('repeat_phase'), target: z.string() }),
        z.object({ action: z.literal('skip_phases'), phases: z.array(z.string()).readonly() }),
        z.object({ action: z.literal('abort') }),
      ]),
    }),
  ),
});
export type PendingCheckpoint = z.infer<typeof PendingCheckpoint>;

/**
 * One thing an agent's own checks found in what it produced (for /plan: spec 003's handoff audit, in §6.2's error
 * shape; `expected`, `actual`, `remediation` and `handoff` are absent from findings recorded before they were kept).
 */
const AgentFinding = z.object({
  /** E.g. `REF-001` (SCH, SEM, CON or REF: one catalogue, `handoffCatalogue.ts`). */
  code: z.string(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  /** The spec's `path`: where in the agent's output, e.g. `$.fileReferences[2].filePath`. */
  where: z.string(),
  expected: z.string().optional(),
  actual: z.string().optional(),
  remediation: z.string().optional(),
  /** The agent instance that produced it (the handoff's source). */
  agent: z.string(),
  /** The handoff's envelope (its run is the run that records it): where it went, when, and its payload's schema. */
  handoff: z
    .object({ to: z.string(), at: z.iso.datetime(), payload: z.string(), schemaVersion: z.string() })
    .optional(),
});

/** What an agent's checks read (`checked` outputs) and found; summed over a phase's passes in its tally. */
export const AgentAudit = z.object({ checked: z.number().int().min(0), findings: z.array(AgentFinding) });
export type AgentAudit = z.infer<typeof AgentAudit>;

const PhaseStatus = z.enum(['pending', 'running', 'completed', 'skipped', 'failed']);
export type PhaseStatus = z.infer<typeof PhaseStatus>;

/**
 * Per-phase tallies for the Metadata Output: what the context does not already say (its passes are
 * `context.phases.iteration_counts`, its files `context.deliverables`).
 */
const PhaseTally = z.object({
  status: PhaseStatus,
  subagents_spawned: z.number().int().min(0),
  /** What the phase's agents' own checks read and found, over every pass (see AgentResult.audit). */
  audit: AgentAudit.optional(),
});

/**
 * Everything needed to continue a workflow run: plain JSON, validated on the way back in, saved after every phase
 * and at every checkpoint, so Stop, an error or a window reload loses at most the phase that was running.
 */
export const WorkflowRunState = z.object({
  stateVersion: z.literal(1),
  runId: z.string().regex(RUN_ID),
  /** Where the definition came from (`built-in plan.yaml`, `.council/workflows/review.yaml`). */
  workflowSource: z.string(),
  context: WorkflowContext,
  /** The phase to run next; null once every phase ran (finalization may still be due). */
  nextPhase: z.string().nullable(),
  pendingCheckpoint: PendingCheckpoint.optional(),
  /** Feedback typed at a checkpoint, for the phase that runs next. */
  feedback: z.object({ forPhase: z.string(), text: z.string() }).optional(),
  phaseTallies: z.record(z.string(), PhaseTally),
  /** Times an agent sent the run back to an earlier phase (shown in the report; bounded by `REPETITION_BOUNDS.routeBacks`). */
  routeBacks: z.number().int().min(0),
  /** Set once the run is over. */
  completedAt: z.iso.datetime().optional(),
  /** Workspace-relative path of the finalized document. */
  finalPlan: z.string().optional(),
  /**
   * What every agent and script spent, per phase and model, over all turns: the governor's ledger, the run's only
   * meter (its request count included).
   */
  spending: SpendingLedgerSchema,
  /** Agent types' own bookkeeping (e.g. the pipeline stages' records), by key; opaque to the engine. */
  blackboard: z.record(z.string(), z.unknown()),
  updatedAt: z.iso.datetime(),
});
export type WorkflowRunState = z.infer<typeof WorkflowRunState>;

/** What a run has spent over all its turns. */
export function runSpent(state: Pick<WorkflowRunState, 'spending'>): SpendTotals {
  return new SpendingLedger(state.spending).totals();
}

/** The governor's step name for a phase's requests (its ledger lines). */
export function phaseStep(phaseId: string): string {
  return `phase ${phaseId}`;
}

/** Model requests a phase made over all its passes, from the ledger. */
export function phaseRequests(state: Pick<WorkflowRunState, 'spending'>, phaseId: string): number {
  const step = phaseStep(phaseId);
  return state.spending.filter(line => line.step === step).reduce((sum, line) => sum + line.requests, 0);
}
