import * as vscode from 'vscode';
import { untrusted } from '../../core/council/wording/markdown';
import { PIPELINE_STAGES } from '../../core/plan/schemas/agentType';
import { spendBrief, spendSummary } from '../../core/llm/spending/spendText';
import { proposedChangeMarkdown } from '../../core/plan/run/proposedChangeMarkdown';
import { refusalAdvice, refusalReason, refusedChanges } from '../../core/plan/writablePath';
import { readBoard, skippedStages, stageOfPhase } from '../../core/plan/pipelineBoard';
import type { WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import { runSpent, type WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import { PLAN_COMMAND } from './planCommands';
import { commandLink, fileLink } from '../chat/inlineLinks';
import { STAGE_NAME } from '../../core/deepWork/planProgress';
import type { PausedOutcome, ReportPart } from './deepWorkTurn';
import { oneLine, stageSummaryMarkdown } from './planSummary';

/**
 * A paused run: the stage's summary, its cost and what is still to run (the checkpoint's options are the answer's
 * next steps: the chat's buttons, a tool's next calls).
 */
export function planCheckpointReport(workflow: WorkflowDefinition, paused: PausedOutcome, stillToRun: string): string {
  const { state, checkpoint } = paused;
  const stage = stageOfPhase(workflow, checkpoint.phase) ?? 'discovery';
  const cost = `_So far: ${spendBrief(runSpent(state))}. ${stillToRun}_`;
  // The line above the buttons: where the run paused, and the workflow file's own prompt.
  const pausedAfter = `Paused after **${STAGE_NAME[stage]}**. ${oneLine(checkpoint.prompt)} Pick one of the buttons below (an aborted run stays resumable).`;
  return `${stageSummaryMarkdown(readBoard(state.blackboard), stage)}\n\n${cost}\n\n${pausedAfter}\n`;
}

/** A completed run: summaries, links to the report files, and each ticket's proposed changes with its Apply button. */
export function planCompletedReport(
  workflow: WorkflowDefinition,
  state: WorkflowRunState,
  reportFiles: readonly vscode.Uri[],
): ReportPart[] {
  const parts: ReportPart[] = [];
  const board = readBoard(state.blackboard);
  const done = PIPELINE_STAGES.filter(stage => board.stages[stage]);
  const skipped = skippedStages(workflow, state);
  parts.push(
    `**The plan is complete**${skipped.length ? ` (skipped: ${skipped.map(s => STAGE_NAME[s].toLowerCase()).join(', ')})` : ''}. _It used ${spendSummary(runSpent(state))}._\n\n`,
  );
  for (const stage of done) parts.push(`${stageSummaryMarkdown(board, stage)}\n\n`);
  if (reportFiles.length > 0) {
    parts.push(
      `As asked by \`/plan\`, the results were written to \`.council/runs/${state.runId}/\` (only these report files; nothing else in your workspace changed):\n\n`,
    );
    // Links in the Markdown, not anchors: every file and every Apply stays in view (see inlineLinks).
    parts.push(
      `${reportFiles.map(uri => `- ${fileLink(uri, uri.path.split('/').slice(-2).join('/'))}`).join('\n')}\n\n`,
    );
  }
  for (const proposal of board.stages.tickets?.agentResults ?? []) {
    if (proposal.proposedChanges.length === 0) continue;
    parts.push(
      `### Proposed changes for ${untrusted(proposal.ticketId)}\n\n${untrusted(proposal.implementationSummary)}\n\n`,
    );
    for (const change of proposal.proposedChanges) {
      parts.push(`${proposedChangeMarkdown({ ...change, rationale: oneLine(change.rationale) })}\n\n`);
    }
    // A proposal Apply would refuse shows why, not a button that cannot work.
    const refused = refusedChanges(proposal.proposedChanges);
    if (refused.length > 0) {
      parts.push(
        `Nothing has been applied. **Council will not apply this proposal:** it ${untrusted(refusalReason(refused))}. ${refusalAdvice('/plan')}\n\n`,
      );
      continue;
    }
    parts.push('Nothing has been applied. **Apply** asks you to confirm the list of files first.\n\n');
    parts.push(
      commandLink(`Apply changes for ${proposal.ticketId}…`, PLAN_COMMAND.applyTicketChanges, [
        { runId: state.runId, ticketId: proposal.ticketId },
      ]),
    );
    parts.push('\n\n');
  }
  return parts;
}
