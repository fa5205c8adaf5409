import { spendSummary } from '../../llm/spending/spendText';
import type { WorkflowDefinition } from '../definition/workflowDefinition';
import { phaseRequests, runSpent, type PhaseStatus, type WorkflowRunState } from './workflowRunState';

/**
 * `metadata.json`: spec 002's "Metadata Output", plus the run id, the definition's file, the model requests it cost
 * and what a person decided at each checkpoint (the Context Schema's `checkpoints[]` and `skip_phases`).
 */
export type WorkflowMetadata = ReturnType<typeof workflowMetadataOf>;

/** Where a phase stands: a phase skipped at a checkpoint reads `skipped` (its tally still says where it was). */
export function phaseStatus(state: WorkflowRunState, phaseId: string): PhaseStatus {
  const { context } = state;
  return context.skip_phases.includes(phaseId) && !context.phases.completed.includes(phaseId)
    ? 'skipped'
    : (state.phaseTallies[phaseId]?.status ?? 'pending');
}

/** The metadata of a run (pure; `now` ends the duration of a run that is not over). */
export function workflowMetadataOf(workflow: WorkflowDefinition, state: WorkflowRunState, now: string) {
  const { context } = state;
  const end = state.completedAt ?? now;
  const phases = workflow.phases.map(phase => {
    const tally = state.phaseTallies[phase.id];
    return {
      id: phase.id,
      status: phaseStatus(state, phase.id),
      iterations: context.phases.iteration_counts[phase.id] ?? 0,
      subagents_spawned: tally?.subagents_spawned ?? 0,
      deliverables: context.deliverables.filter(deliverable => deliverable.phase === phase.id).length,
      model_requests: phaseRequests(state, phase.id),
      // What the phase's agents' own checks read and found (for /plan: spec 003's handoff audit).
      ...(tally?.audit ? { audit: tally.audit } : {}),
    };
  });
  const spent = runSpent(state);
  return {
    run_id: state.runId,
    source: state.workflowSource,
    workflow: {
      name: context.workflow.name,
      execution_mode: context.workflow.execution_mode,
      started_at: context.workflow.started_at,
      completed_at: state.completedAt ?? null,
      duration_seconds: Math.max(0, Math.round((Date.parse(end) - Date.parse(context.workflow.started_at)) / 1000)),
    },
    feature: { name: context.feature.name, flags: [...context.feature.flags] },
    phases,
    totals: {
      phases_completed: phases.filter(phase => phase.status === 'completed').length,
      phases_skipped: phases.filter(phase => phase.status === 'skipped').length,
      subagents_spawned: context.subagents_spawned,
      deliverables_created: context.deliverables.length,
      checkpoints_hit: context.checkpoints.length,
      // Each is listed under its phase's `audit`.
      audit_errors: phases.flatMap(phase => phase.audit?.findings ?? []).filter(finding => finding.severity === 'error')
        .length,
      model_requests: spent.requests,
      input_tokens: spent.inputTokens,
      output_tokens: spent.outputTokens,
      // Of the requests whose price is known.
      estimated_credits: Math.round(spent.credits * 100) / 100,
      // E.g. "14 requests · 23k tokens (21k in, 1.9k out) · about 0.6 AI credits".
      spend: spendSummary(spent),
    },
    // Every checkpoint decision, in order, with the option's label, the phases it skipped and the feedback typed.
    checkpoints: context.checkpoints.map(({ skipped = [], feedback = null, timestamp, ...record }) => ({
      ...record,
      skipped,
      feedback,
      timestamp,
    })),
    skip_phases: [...context.skip_phases],
    // What each agent and script spent, per phase and model.
    spending: [...state.spending],
    final_plan: state.finalPlan ?? null,
  };
}
