import type { PipelineStage } from '../../core/plan/schemas/agentType';
import { PIPELINE_STAGES } from '../../core/plan/schemas/agentType';
import { boardOf, readBoard, type PipelineBoard } from '../../core/plan/pipelineBoard';
import { spendBrief } from '../../core/llm/spending/spendText';
import {
  describeWorkflowProblems,
  describeWorkflowSource,
  type WorkflowCatalog,
} from '../../core/deepWork/buildWorkflowCatalog';
import type { WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import { runSpent, type PendingCheckpoint, type WorkflowRunState } from '../../core/workflow/engine/workflowRunState';

/*
 * The `council` command's and the MCP server's words for a deep-work run: plain text a terminal shows as it is (model
 * output is kept on one line per item; nothing here is a link or a command that runs).
 */

/** Model output as one line of text. */
function line(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** What one completed stage of a `/plan` run found or proposed. */
function stageSummary(board: PipelineBoard, stage: PipelineStage): string {
  const { discovery, planning, tickets } = board.stages;
  switch (stage) {
    case 'discovery':
      return discovery
        ? [
            `Discovery mapped ${discovery.result.unifiedCodeMap.modules.length} module(s); recommendations:`,
            ...discovery.result.recommendations.map(r => `  - ${r.recommendationId} (${r.priority}): ${line(r.title)}`),
          ].join('\n')
        : '';
    case 'planning':
      return planning
        ? [
            `Planning wrote ${planning.result.finalizedTickets.length} ticket(s):`,
            ...planning.result.finalizedTickets.map(
              t =>
                `  - ${t.ticketId}: ${line(t.title)}${t.dependencies.length ? ` (after ${t.dependencies.join(', ')})` : ''}`,
            ),
          ].join('\n')
        : '';
    case 'tickets':
      return tickets
        ? [
            `Ticket work: ${tickets.agentResults.length} implementation proposal(s):`,
            ...tickets.agentResults.map(
              r =>
                `  - ${r.ticketId} (${r.verificationStatus}): ${r.proposedChanges.map(c => `${c.kind} ${c.path}`).join(', ') || 'no file changes'}`,
            ),
          ].join('\n')
        : '';
  }
}

/** A paused run: where it paused, what the stage or phase found, and what it has spent. */
export function checkpointText(
  command: 'plan' | 'workflow',
  workflow: WorkflowDefinition,
  state: WorkflowRunState,
  pending: PendingCheckpoint,
): string {
  const phase = workflow.phases.find(candidate => candidate.id === pending.phase);
  const board = boardOf(state.blackboard);
  const done = board && command === 'plan' ? PIPELINE_STAGES.filter(stage => board.stages[stage]).at(-1) : undefined;
  const files = pending.files.length
    ? pending.files
    : state.context.deliverables.filter(d => d.phase === pending.phase).map(d => d.path);
  return [
    `${pending.origin === 'gap_check' ? 'Gap check' : 'Checkpoint'} after ${phase?.name ?? pending.phase}: ${line(pending.prompt)}`,
    ...(board && done ? [stageSummary(board, done)] : []),
    ...(files.length ? [`Files:\n${files.map(file => `  - ${file}`).join('\n')}`] : []),
    `So far: ${spendBrief(runSpent(state))}. The run is saved.`,
  ].join('\n\n');
}

/** A completed `/plan` run: each stage's summary, the report files and the proposals (nothing applied). */
export function planCompletedText(state: WorkflowRunState, reportFiles: readonly string[]): string {
  const board = readBoard(state.blackboard);
  const proposals = (board.stages.tickets?.agentResults ?? []).filter(p => p.proposedChanges.length > 0);
  return [
    `The plan is complete (${spendBrief(runSpent(state))}).`,
    ...PIPELINE_STAGES.filter(stage => board.stages[stage]).map(stage => stageSummary(board, stage)),
    ...(reportFiles.length
      ? [
          `Report (only these files were written; nothing else in the project changed):\n${reportFiles.map(f => `  - ${f}`).join('\n')}`,
        ]
      : []),
    ...(proposals.length
      ? [`Proposed changes were not applied: review them in the report, then apply a ticket's with its command below.`]
      : []),
  ].join('\n\n');
}

/** A completed workflow run: its phases and files. */
export function workflowCompletedText(workflow: WorkflowDefinition, state: WorkflowRunState): string {
  const { context } = state;
  const files = [...context.deliverables.map(d => d.path), `${context.output_dir}/metadata.json`];
  return [
    `${workflow.name} is complete: ${context.phases.completed.length} phase(s) done; ${spendBrief(runSpent(state))}.`,
    ...(state.finalPlan ? [`The final document: ${state.finalPlan}`] : []),
    `Files written to ${context.output_dir}/ (only this run's folder; nothing else in the project changed):\n${files.map(f => `  - ${f}`).join('\n')}`,
  ].join('\n\n');
}

/** `council workflow` alone: every workflow, and the files that gave none. */
export function workflowListText(catalog: WorkflowCatalog): string {
  const lines = catalog.workflows.map(
    w => `  ${w.name}: ${line(w.description)} (${describeWorkflowSource(w.source)}; ${w.phases.length} phase(s))`,
  );
  const problems = catalog.problems.length
    ? `\n\nThese workflow files were not loaded; fix them and try again:\n${describeWorkflowProblems(catalog.problems)}`
    : '';
  return `Workflows:\n${lines.join('\n') || '  none'}\n\nRun one with: council workflow <name> "<goal>". Add your own in .council/workflows/.${problems}`;
}
