import * as vscode from 'vscode';
import type { AttachedItem } from '../../core/session/attachedItem';
import { withUserAnswer } from '../../core/deepWork/runDeepWork';
import {
  resumableRun,
  runDeepWorkTurn,
  say,
  workspaceRefusal,
  type DeepWorkDeps,
  type DeepWorkStart,
} from './deepWorkTurn';
import { parseWorkflowRequest, workflowButtons } from './workflowRequest';
import { runMetadata, WORKFLOW_DOOR } from './deepWorkResult';
import { renderWorkflowCheckpoint, renderWorkflowCompleted, renderWorkflowList } from './workflowResponse';

/** The `/workflow` hook of the participant. */
export type WorkflowHandler = (
  text: string,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  attached?: readonly AttachedItem[],
) => Promise<vscode.ChatResult>;

/**
 * `/workflow`: alone, lists the workflows (built in, and the workspace's `.council/workflows/*.yaml` when trusted);
 * `/workflow <name> <goal>` runs one through the workflow engine; the checkpoint buttons send
 * `/workflow decide <run-id> <option> [feedback]`, Resume sends `/workflow resume <run-id>`. Runs are refused in an
 * untrusted workspace (they read the workspace and run the workflow's scripts).
 */
export function createWorkflowHandler(deps: DeepWorkDeps): WorkflowHandler {
  return async (text, request, stream, token, attached = []) => {
    const parsed = parseWorkflowRequest(text);
    if (parsed.kind === 'list') return { metadata: renderWorkflowList(stream, await deps.catalog()) };
    const refused = workspaceRefusal({
      untrusted:
        'Workflows read your workspace and run the scripts in their files, so they only run in a trusted workspace. Trust this workspace (**Manage Workspace Trust**) and try again.',
      noFolder: 'Workflows work on a workspace folder: open one and try again.',
    });
    if (refused) return say(stream, refused, WORKFLOW_DOOR);
    let start: DeepWorkStart;
    let name: string;
    if (parsed.kind === 'start') {
      if (!parsed.goal)
        return say(
          stream,
          `Add a goal after the workflow's name, e.g. \`@council /workflow ${parsed.name} Review the payment module\`. Send \`/workflow\` alone to list the workflows.`,
          WORKFLOW_DOOR,
        );
      name = parsed.name;
      start = { start: { goal: parsed.goal, flags: parsed.flags } };
    } else {
      const run = resumableRun(
        deps,
        WORKFLOW_DOOR,
        deps.runs.read(parsed.runId),
        stream,
        `There is no saved workflow run \`${parsed.runId}\` in this workspace. Send \`/workflow\` to list the workflows.`,
      );
      if (!('state' in run)) return run;
      const { state } = run;
      name = run.workflow;
      if (parsed.kind === 'abort') {
        await deps.runs.save(state, 'aborted');
        return say(
          stream,
          `Run \`${state.runId}\` aborted. Its files stay in \`${state.context.output_dir}/\`.`,
          runMetadata(WORKFLOW_DOOR, state, 'aborted'),
        );
      }
      if (parsed.kind === 'decide') {
        const pending = state.pendingCheckpoint;
        if (!pending)
          return say(
            stream,
            `Run \`${state.runId}\` is not waiting at a checkpoint (it is ${run.status}).`,
            runMetadata(WORKFLOW_DOOR, state, run.status),
          );
        if (parsed.option < 1 || parsed.option > pending.options.length) {
          return say(stream, `That checkpoint has options 1 to ${pending.options.length}; pick one of its buttons.`, {
            ...runMetadata(WORKFLOW_DOOR, state, 'paused'),
            options: workflowButtons(pending, state.runId),
          });
        }
        start = {
          resume: {
            state,
            decision: { option: parsed.option - 1, ...(parsed.feedback ? { feedback: parsed.feedback } : {}) },
          },
        };
      } else {
        start = { resume: { state: state.pendingCheckpoint ? state : withUserAnswer(state, parsed.text) } };
      }
    }
    return runDeepWorkTurn(deps, {
      door: WORKFLOW_DOOR,
      workflowName: name,
      start,
      request,
      stream,
      token,
      attached,
      paused: (outcome, workflow) => renderWorkflowCheckpoint(stream, workflow, outcome.state, outcome.checkpoint),
      completed: (state, workflow) => renderWorkflowCompleted(stream, workflow, state),
    });
  };
}
