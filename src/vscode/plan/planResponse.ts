import * as vscode from 'vscode';
import { untrusted } from '../../core/council/wording/markdown';
import type { SpendTotals } from '../../core/llm/spending/ledger';
import { spendBrief, spendSummary } from '../../core/llm/spending/spendText';
import { proposedChangeMarkdown } from '../../core/plan/run/proposedChangeMarkdown';
import { lastCompletedStage, readBoard, skippedStages, stageOfPhase } from '../../core/plan/pipelineBoard';
import type { WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import type { WorkflowOutcome } from '../../core/workflow/engine/runWorkflow';
import type { WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import { PLAN_COMMAND } from './planCommands';
import { commandLink, fileLink } from '../chat/inlineLinks';
import { stageName } from './planProgress';
import type { DeepWorkResultMetadata } from '../workflow/deepWorkResult';
import { planButtons } from './planRequest';
import type { WorkflowRunStatus } from '../../core/deepWork/storedWorkflowRun';
import { checkpointPrompt, savedProgress, stageSummaryMarkdown } from './planSummary';

function metadataOf(state: WorkflowRunState, status: WorkflowRunStatus): DeepWorkResultMetadata {
  const stage = lastCompletedStage(readBoard(state.blackboard));
  return { plan: 1, runId: state.runId, status, ...(stage ? { stage } : {}) };
}

/** The end of a paused run's response: the stage's summary, its cost and what is still to run, and the buttons. */
export function renderCheckpoint(
  stream: vscode.ChatResponseStream,
  workflow: WorkflowDefinition,
  paused: Extract<WorkflowOutcome, { readonly status: 'paused' }>,
  spent: SpendTotals,
  stillToRun: string,
): DeepWorkResultMetadata {
  const { state, checkpoint } = paused;
  const stage = stageOfPhase(workflow, checkpoint.phase) ?? 'discovery';
  const cost = `_So far: ${spendBrief(spent)}. ${stillToRun}_`;
  stream.markdown(
    `${stageSummaryMarkdown(readBoard(state.blackboard), stage)}\n\n${cost}\n\n${checkpointPrompt(checkpoint, stage)}\n`,
  );
  return { ...metadataOf(state, 'paused'), options: planButtons(checkpoint, state.runId) };
}

/** A completed run: summaries, links to the report files, and each ticket's proposed changes with its Apply button. */
export function renderCompleted(
  stream: vscode.ChatResponseStream,
  workflow: WorkflowDefinition,
  state: WorkflowRunState,
  reportFiles: readonly vscode.Uri[],
  spent: SpendTotals,
): DeepWorkResultMetadata {
  const board = readBoard(state.blackboard);
  const done = (['discovery', 'planning', 'tickets'] as const).filter(stage => board.stages[stage]);
  const skipped = skippedStages(workflow, state);
  stream.markdown(
    `**The plan is complete**${skipped.length ? ` (skipped: ${skipped.map(s => stageName(s).toLowerCase()).join(', ')})` : ''}. _It used ${spendSummary(spent)}._\n\n`,
  );
  for (const stage of done) stream.markdown(`${stageSummaryMarkdown(board, stage)}\n\n`);
  if (reportFiles.length > 0) {
    stream.markdown(
      `As asked by \`/plan\`, the results were written to \`.council/runs/${state.runId}/\` (only these report files; nothing else in your workspace changed):\n\n`,
    );
    // Links in the Markdown, not anchors: every file and every Apply stays in view (see inlineLinks).
    stream.markdown(
      `${reportFiles.map(uri => `- ${fileLink(uri, uri.path.split('/').slice(-2).join('/'))}`).join('\n')}\n\n`,
    );
  }
  for (const proposal of board.stages.tickets?.agentResults ?? []) {
    if (proposal.proposedChanges.length === 0) continue;
    stream.markdown(
      `### Proposed changes for ${untrusted(proposal.ticketId)}\n\n${untrusted(proposal.implementationSummary)}\n\n`,
    );
    for (const change of proposal.proposedChanges) {
      stream.markdown(
        `${proposedChangeMarkdown({ ...change, rationale: untrusted(change.rationale).replace(/\s*\n\s*/g, ' ') })}\n\n`,
      );
    }
    stream.markdown('Nothing has been applied. **Apply** asks you to confirm the list of files first.\n\n');
    stream.markdown(
      commandLink(`Apply changes for ${proposal.ticketId}…`, PLAN_COMMAND.applyTicketChanges, [
        { runId: state.runId, ticketId: proposal.ticketId },
      ]),
    );
    stream.markdown('\n\n');
  }
  return metadataOf(state, 'completed');
}

/** A run that stopped without completing: what happened and how to go on (the buttons resume the saved state). */
export function renderStopped(
  stream: vscode.ChatResponseStream,
  outcome: Pick<WorkflowOutcome, 'status' | 'state'> & { readonly question?: string },
): DeepWorkResultMetadata {
  const { state } = outcome;
  const saved = savedProgress(readBoard(state.blackboard), '**');
  const id = `\`${state.runId}\``;
  switch (outcome.status) {
    case 'cancelled':
      stream.markdown(
        `Stopped. ${saved} Press **Resume** (or send \`/plan resume ${state.runId}\`) to go on from there.`,
      );
      break;
    case 'aborted':
      stream.markdown(`Run ${id} aborted. ${saved} Press **Resume** if you change your mind.`);
      break;
    case 'needs_user':
      stream.markdown(
        `The run needs your input before it can go on:\n\n> ${untrusted(outcome.question ?? '').replace(/\n/g, '\n> ')}\n\n${saved} ` +
          `Answer with \`/plan resume ${state.runId} <your answer>\`, or press **Resume** to go on without an answer.`,
      );
      break;
    case 'failed':
      // Shown in the error box (see planStop); the provider's detail goes to the log only.
      break;
    case 'completed':
    case 'paused':
      break;
  }
  return metadataOf(state, outcome.status);
}
