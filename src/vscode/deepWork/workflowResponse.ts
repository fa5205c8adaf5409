import * as vscode from 'vscode';
import { untrusted } from '../../core/council/wording/markdown';
import type { WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import type { WorkflowOutcome } from '../../core/workflow/engine/runWorkflow';
import { spendBrief } from '../../core/llm/spending/spendText';
import { runSpent, type PendingCheckpoint, type WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import {
  describeWorkflowProblems,
  describeWorkflowSource,
  type WorkflowCatalog,
} from '../../core/deepWork/buildWorkflowCatalog';
import { fileLink } from '../chat/inlineLinks';
import type { RunCommand } from '../../core/nextSteps';
import { readBoard } from '../../core/plan/pipelineBoard';
import { oneLine, savedProgress } from './planSummary';

/** A link target inside the workspace folder; none for a path that would leave it (shown as text instead). */
function fileUri(path: string): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const segments = path.replace(/\\/g, '/').split('/');
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || segments.includes('..')) return undefined;
  return folder ? vscode.Uri.joinPath(folder.uri, ...segments) : undefined;
}

/** The files as a Markdown list of links (in view, unlike anchors: see inlineLinks). */
function linkFiles(paths: readonly string[], folder: string): string {
  const items = paths.map(path => {
    const uri = fileUri(path);
    return `- ${uri ? fileLink(uri, path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : path) : `\`${path}\``}`;
  });
  return `${items.join('\n')}\n\n`;
}

/** `/workflow` alone: every workflow with its description and where it comes from, and the files with problems. */
export function workflowListReport(catalog: WorkflowCatalog): string {
  const parts: string[] = [];
  const lines = catalog.workflows.map(
    workflow =>
      `- **${workflow.name}**: ${oneLine(workflow.description)} _(${describeWorkflowSource(workflow.source)}; ${workflow.phases.length} phase${workflow.phases.length === 1 ? '' : 's'})_`,
  );
  parts.push(
    `**Workflows**\n\n${lines.join('\n') || '_None._'}\n\nRun one with \`@council /workflow <name> <goal>\` (or **Council: Run Workflow**). Add your own in \`.council/workflows/\` with **Council: Create Workflow**.\n`,
  );
  if (catalog.problems.length) {
    const problems = describeWorkflowProblems(catalog.problems);
    parts.push(`\nThese workflow files were not loaded; fix them and try again:\n\n\`\`\`text\n${problems}\n\`\`\`\n`);
  }
  if (!vscode.workspace.isTrusted)
    parts.push('\n_This workspace is not trusted, so its own workflows (`.council/workflows/`) are not loaded._\n');
  return parts.join('');
}

/**
 * A paused run: the checkpoint's question, its files, and what it has spent (its options are the answer's next
 * steps: the chat's buttons, a tool's next calls).
 */
export function workflowCheckpointReport(
  workflow: WorkflowDefinition,
  state: WorkflowRunState,
  pending: PendingCheckpoint,
): string {
  const phase = workflow.phases.find(candidate => candidate.id === pending.phase);
  const title = pending.origin === 'gap_check' ? 'Gap check' : 'Checkpoint';
  const written = state.context.deliverables
    .filter(deliverable => deliverable.phase === pending.phase)
    .map(deliverable => deliverable.path);
  const files = pending.files.length ? pending.files : written;
  return (
    `${title} after **${phase?.name ?? pending.phase}**: ${untrusted(pending.prompt)}\n\n` +
    (files.length ? linkFiles(files, state.context.output_dir) : '') +
    `_So far: ${spendBrief(runSpent(state))}. The run is saved; pick an option below (it continues in a new request)._\n`
  );
}

/** A completed run: its files, the final document and metadata.json. */
export function workflowCompletedReport(workflow: WorkflowDefinition, state: WorkflowRunState): string {
  const { context } = state;
  const skipped = context.skip_phases.filter(id => !context.phases.completed.includes(id));
  const parts = [
    `**${untrusted(workflow.name)} is complete**: ${context.phases.completed.length} phase${context.phases.completed.length === 1 ? '' : 's'} done${skipped.length ? `, skipped: ${skipped.join(', ')}` : ''}; ${context.subagents_spawned} agent${context.subagents_spawned === 1 ? '' : 's'}; ${spendBrief(runSpent(state))}.\n\n`,
  ];
  if (state.finalPlan) parts.push('The final document:\n\n', linkFiles([state.finalPlan], context.output_dir));
  const files = context.deliverables.map(deliverable => deliverable.path).filter(path => path !== state.finalPlan);
  parts.push(
    `Files written to \`${context.output_dir}/\` (only this run's folder; nothing else in your workspace changed):\n\n`,
    linkFiles([...files, `${context.output_dir}/metadata.json`], context.output_dir),
  );
  const gaps = context.gap_checks.filter(record => record.status === 'incomplete');
  if (gaps.length)
    parts.push(`_Gap checks found gaps ${gaps.length} time${gaps.length === 1 ? '' : 's'}; see metadata.json._\n`);
  return parts.join('');
}

/**
 * A run that stopped without completing: what happened, what is saved and how to go on (its next steps resume it),
 * in the words of the command that ran it (`/plan` names stages, `/workflow` phases). A failure says nothing here:
 * its message is the answer's error (the chat's error box), the provider's detail goes to the log only.
 */
export function stoppedReport(
  command: RunCommand,
  outcome: Exclude<WorkflowOutcome, { status: 'completed' | 'paused' }>,
): string {
  const { state } = outcome;
  const plan = command === 'plan';
  const resume = `/${command} resume ${state.runId}`;
  const done = state.context.phases.completed.at(-1);
  const saved = plan
    ? savedProgress(readBoard(state.blackboard), '**')
    : done
      ? `Progress up to phase \`${done}\` is saved.`
      : 'No phase was completed yet.';
  switch (outcome.status) {
    case 'cancelled':
      return `Stopped. ${saved} Press **Resume** (or send \`${resume}\`) to go on from there.`;
    case 'aborted':
      return plan
        ? `Run \`${state.runId}\` aborted. ${saved} Press **Resume** if you change your mind.`
        : `${untrusted(outcome.message)} ${saved}`;
    case 'needs_user':
      return (
        `The run needs your input before it can go on:\n\n> ${untrusted(outcome.question).replace(/\n/g, '\n> ')}\n\n${saved} ` +
        `Answer with \`${resume} <your answer>\`${plan ? ', or press **Resume** to go on without an answer' : ''}.`
      );
    case 'failed':
      return '';
  }
}
