import * as vscode from 'vscode';
import { untrusted } from '../../core/council/wording/markdown';
import { PIPELINE_STAGES } from '../../core/plan/schemas/agentType';
import { spendBrief, spendSummary } from '../../core/llm/spending/spendText';
import { proposedChangeMarkdown } from '../../core/plan/run/proposedChangeMarkdown';
import { readBoard, skippedStages, stageOfPhase } from '../../core/plan/pipelineBoard';
import type { WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import { runSpent, type WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import { PLAN_COMMAND } from './planCommands';
import { commandLink, fileLink } from '../chat/inlineLinks';
import { STAGE_NAME } from './planProgress';
import { PLAN_DOOR, runMetadata, type DeepWorkResultMetadata } from '../workflow/deepWorkResult';
import type { PausedOutcome } from '../workflow/deepWorkTurn';
import { planButtons } from './planRequest';
import { oneLine, stageSummaryMarkdown } from './planSummary';

/** The end of a paused run's response: the stage's summary, its cost and what is still to run, and the buttons. */
export function renderCheckpoint(
  stream: vscode.ChatResponseStream,
  workflow: WorkflowDefinition,
  paused: PausedOutcome,
  stillToRun: string,
): DeepWorkResultMetadata {
  const { state, checkpoint } = paused;
  const stage = stageOfPhase(workflow, checkpoint.phase) ?? 'discovery';
  const cost = `_So far: ${spendBrief(runSpent(state))}. ${stillToRun}_`;
  // The line above the buttons: where the run paused, and the workflow file's own prompt.
  const pausedAfter = `Paused after **${STAGE_NAME[stage]}**. ${oneLine(checkpoint.prompt)} Pick one of the buttons below (an aborted run stays resumable).`;
  stream.markdown(`${stageSummaryMarkdown(readBoard(state.blackboard), stage)}\n\n${cost}\n\n${pausedAfter}\n`);
  return { ...runMetadata(PLAN_DOOR, state, 'paused'), options: planButtons(checkpoint, state.runId) };
}

/** A completed run: summaries, links to the report files, and each ticket's proposed changes with its Apply button. */
export function renderCompleted(
  stream: vscode.ChatResponseStream,
  workflow: WorkflowDefinition,
  state: WorkflowRunState,
  reportFiles: readonly vscode.Uri[],
): DeepWorkResultMetadata {
  const board = readBoard(state.blackboard);
  const done = PIPELINE_STAGES.filter(stage => board.stages[stage]);
  const skipped = skippedStages(workflow, state);
  stream.markdown(
    `**The plan is complete**${skipped.length ? ` (skipped: ${skipped.map(s => STAGE_NAME[s].toLowerCase()).join(', ')})` : ''}. _It used ${spendSummary(runSpent(state))}._\n\n`,
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
      stream.markdown(`${proposedChangeMarkdown({ ...change, rationale: oneLine(change.rationale) })}\n\n`);
    }
    stream.markdown('Nothing has been applied. **Apply** asks you to confirm the list of files first.\n\n');
    stream.markdown(
      commandLink(`Apply changes for ${proposal.ticketId}…`, PLAN_COMMAND.applyTicketChanges, [
        { runId: state.runId, ticketId: proposal.ticketId },
      ]),
    );
    stream.markdown('\n\n');
  }
  return runMetadata(PLAN_DOOR, state, 'completed');
}
