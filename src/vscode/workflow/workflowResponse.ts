import * as vscode from 'vscode';
import { untrusted } from '../../core/council/wording/markdown';
import type { WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import type { WorkflowOutcome } from '../../core/workflow/engine/runWorkflow';
import { spendBrief } from '../../core/llm/spending/spendText';
import { runSpent, type PendingCheckpoint, type WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import { describeWorkflowProblems, describeWorkflowSource, type WorkflowCatalog } from './buildWorkflowCatalog';
import { decidePrompt, workflowButtons } from './workflowRequest';
import { commandLink, fileLink } from '../chat/inlineLinks';
import { runMetadata, WORKFLOW_DOOR, type DeepWorkDoor, type DeepWorkResultMetadata } from './deepWorkResult';
import { readBoard } from '../../core/plan/pipelineBoard';
import { oneLine, savedProgress } from '../plan/planSummary';

/** A link target inside the workspace folder; none for a path that would leave it (shown as text instead). */
function fileUri(path: string): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const segments = path.replace(/\\/g, '/').split('/');
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || segments.includes('..')) return undefined;
  return folder ? vscode.Uri.joinPath(folder.uri, ...segments) : undefined;
}

/** The files as a Markdown list of links (in view, unlike anchors: see inlineLinks). */
function linkFiles(stream: vscode.ChatResponseStream, paths: readonly string[], folder: string): void {
  const items = paths.map(path => {
    const uri = fileUri(path);
    return `- ${uri ? fileLink(uri, path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : path) : `\`${path}\``}`;
  });
  stream.markdown(`${items.join('\n')}\n\n`);
}

/** `/workflow` alone: every workflow with its description and where it comes from, and the files with problems. */
export function renderWorkflowList(
  stream: vscode.ChatResponseStream,
  catalog: WorkflowCatalog,
): DeepWorkResultMetadata {
  const lines = catalog.workflows.map(
    workflow =>
      `- **${workflow.name}**: ${oneLine(workflow.description)} _(${describeWorkflowSource(workflow.source)}; ${workflow.phases.length} phase${workflow.phases.length === 1 ? '' : 's'})_`,
  );
  stream.markdown(
    `**Workflows**\n\n${lines.join('\n') || '_None._'}\n\nRun one with \`@council /workflow <name> <goal>\` (or **Council: Run Workflow**). Add your own in \`.council/workflows/\` with **Council: Create Workflow**.\n`,
  );
  if (catalog.problems.length) {
    const problems = describeWorkflowProblems(catalog.problems);
    stream.markdown(
      `\nThese workflow files were not loaded; fix them and try again:\n\n\`\`\`text\n${problems}\n\`\`\`\n`,
    );
  }
  if (!vscode.workspace.isTrusted)
    stream.markdown(
      '\n_This workspace is not trusted, so its own workflows (`.council/workflows/`) are not loaded._\n',
    );
  return WORKFLOW_DOOR;
}

/** A paused run: the checkpoint's question, its files, and its options (buttons below the response). */
export function renderWorkflowCheckpoint(
  stream: vscode.ChatResponseStream,
  workflow: WorkflowDefinition,
  state: WorkflowRunState,
  pending: PendingCheckpoint,
): DeepWorkResultMetadata {
  const phase = workflow.phases.find(candidate => candidate.id === pending.phase);
  const title = pending.origin === 'gap_check' ? 'Gap check' : 'Checkpoint';
  stream.markdown(`${title} after **${phase?.name ?? pending.phase}**: ${untrusted(pending.prompt)}\n\n`);
  const written = state.context.deliverables
    .filter(deliverable => deliverable.phase === pending.phase)
    .map(deliverable => deliverable.path);
  const files = pending.files.length ? pending.files : written;
  if (files.length) linkFiles(stream, files, state.context.output_dir);
  for (const [index, option] of pending.options.entries()) {
    if (!option.withFeedback) continue;
    // Puts the command in the chat input, so the user types the feedback before sending.
    stream.markdown(
      commandLink(`${option.label}, with feedback…`, 'workbench.action.chat.open', [
        { query: `@council /workflow ${decidePrompt(state.runId, index + 1)} `, isPartialQuery: true },
      ]),
    );
    stream.markdown('\n\n');
  }
  stream.markdown(
    `_So far: ${spendBrief(runSpent(state))}. The run is saved; pick an option below (it continues in a new request)._\n`,
  );
  return { ...runMetadata(WORKFLOW_DOOR, state, 'paused'), options: workflowButtons(pending, state.runId) };
}

/** A completed run: its files, the final document and metadata.json. */
export function renderWorkflowCompleted(
  stream: vscode.ChatResponseStream,
  workflow: WorkflowDefinition,
  state: WorkflowRunState,
): DeepWorkResultMetadata {
  const { context } = state;
  const skipped = context.skip_phases.filter(id => !context.phases.completed.includes(id));
  stream.markdown(
    `**${untrusted(workflow.name)} is complete**: ${context.phases.completed.length} phase${context.phases.completed.length === 1 ? '' : 's'} done${skipped.length ? `, skipped: ${skipped.join(', ')}` : ''}; ${context.subagents_spawned} agent${context.subagents_spawned === 1 ? '' : 's'}; ${spendBrief(runSpent(state))}.\n\n`,
  );
  if (state.finalPlan) {
    stream.markdown('The final document:\n\n');
    linkFiles(stream, [state.finalPlan], context.output_dir);
  }
  const files = context.deliverables.map(deliverable => deliverable.path).filter(path => path !== state.finalPlan);
  stream.markdown(
    `Files written to \`${context.output_dir}/\` (only this run's folder; nothing else in your workspace changed):\n\n`,
  );
  linkFiles(stream, [...files, `${context.output_dir}/metadata.json`], context.output_dir);
  const gaps = context.gap_checks.filter(record => record.status === 'incomplete');
  if (gaps.length)
    stream.markdown(`_Gap checks found gaps ${gaps.length} time${gaps.length === 1 ? '' : 's'}; see metadata.json._\n`);
  return runMetadata(WORKFLOW_DOOR, state, 'completed');
}

/**
 * A run that stopped without completing: what happened, what is saved and how to go on (the buttons resume it), in
 * the words of the command that ran it (`/plan` names stages, `/workflow` phases).
 */
export function renderStopped(
  stream: vscode.ChatResponseStream,
  door: DeepWorkDoor,
  outcome: Exclude<WorkflowOutcome, { status: 'completed' | 'paused' }>,
): DeepWorkResultMetadata {
  const { state } = outcome;
  const board = readBoard(state.blackboard);
  const plan = 'plan' in door;
  const resume = `/${plan ? 'plan' : 'workflow'} resume ${state.runId}`;
  const done = state.context.phases.completed.at(-1);
  const saved = plan
    ? savedProgress(board, '**')
    : done
      ? `Progress up to phase \`${done}\` is saved.`
      : 'No phase was completed yet.';
  switch (outcome.status) {
    case 'cancelled':
      stream.markdown(`Stopped. ${saved} Press **Resume** (or send \`${resume}\`) to go on from there.`);
      break;
    case 'aborted':
      stream.markdown(
        plan
          ? `Run \`${state.runId}\` aborted. ${saved} Press **Resume** if you change your mind.`
          : `${untrusted(outcome.message)} ${saved}`,
      );
      break;
    case 'needs_user':
      stream.markdown(
        `The run needs your input before it can go on:\n\n> ${untrusted(outcome.question).replace(/\n/g, '\n> ')}\n\n${saved} ` +
          `Answer with \`${resume} <your answer>\`${plan ? ', or press **Resume** to go on without an answer' : ''}.`,
      );
      break;
    case 'failed':
      // Shown in the error box (see runDeepWorkTurn); the provider's detail goes to the log only.
      break;
  }
  return runMetadata(door, state, outcome.status);
}
