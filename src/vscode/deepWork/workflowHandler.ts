import {
  continueRun,
  resumableRun,
  runDeepWorkTurn,
  said,
  workspaceRefusal,
  type DeepWorkAnswer,
  type DeepWorkCall,
  type DeepWorkDeps,
  type DeepWorkStart,
} from './deepWorkTurn';
import type { WorkflowRequest } from './workflowRequest';
import { workflowCheckpointReport, workflowCompletedReport, workflowListReport } from './workflowResponse';

/** `/workflow` and `council_workflow`: one typed request (parsed by the chat, validated by the tool), answered for each door to render. */
export type WorkflowHandler = (request: WorkflowRequest, call: DeepWorkCall) => Promise<DeepWorkAnswer>;

/**
 * `/workflow`: alone, lists the workflows (built in, and the workspace's `.council/workflows/*.yaml` when trusted);
 * `/workflow <name> <goal>` runs one through the workflow engine; the checkpoint buttons send
 * `/workflow decide <run-id> <option> [feedback]`, Resume sends `/workflow resume <run-id>`. Runs are refused in an
 * untrusted workspace (they read the workspace and run the workflow's scripts).
 */
export function createWorkflowHandler(deps: DeepWorkDeps): WorkflowHandler {
  return async (request, call) => {
    if (request.kind === 'list') return said('workflow', workflowListReport(await deps.catalog()));
    const refused = workspaceRefusal({
      untrusted:
        'Workflows read your workspace and run the scripts in their files, so they only run in a trusted workspace. Trust this workspace (**Manage Workspace Trust**) and try again.',
      noFolder: 'Workflows work on a workspace folder: open one and try again.',
    });
    if (refused) return said('workflow', refused);
    let start: DeepWorkStart;
    let name: string;
    if (request.kind === 'start') {
      if (!request.goal)
        return said(
          'workflow',
          `Add a goal after the workflow's name, e.g. \`@council /workflow ${request.name} Review the payment module\`. Send \`/workflow\` alone to list the workflows.`,
        );
      name = request.name;
      start = { start: { goal: request.goal, flags: request.flags } };
    } else {
      const { runId } = request.control;
      const run = resumableRun(
        deps,
        'workflow',
        deps.runs.read(runId),
        call.say,
        `There is no saved workflow run \`${runId}\` in this workspace. Send \`/workflow\` to list the workflows.`,
      );
      if (!('state' in run)) return run;
      const next = await continueRun(deps, 'workflow', run, request.control);
      if ('command' in next) return next;
      name = run.workflow;
      start = next;
    }
    return runDeepWorkTurn(deps, {
      command: 'workflow',
      workflowName: name,
      start,
      call,
      paused: (outcome, workflow) => workflowCheckpointReport(workflow, outcome.state, outcome.checkpoint),
      completed: (state, workflow) => [workflowCompletedReport(workflow, state)],
    });
  };
}
