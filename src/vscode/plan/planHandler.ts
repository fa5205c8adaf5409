import * as vscode from 'vscode';
import type { SessionLog } from '../../core/council/sessionLog';
import type { AttachedItem } from '../../core/session/attachedItem';
import { forecastWorkflow, workflowForecastSentence } from '../../core/deepWork/workflowForecast';
import { optionFor } from '../../core/workflow/engine/checkpoints';
import { workflowMetadataOf } from '../../core/workflow/engine/workflowMetadata';
import { systemClock } from '../../core/clock';
import { withUserAnswer } from '../../core/deepWork/runDeepWork';
import {
  resumableRun,
  runDeepWorkTurn,
  say,
  runModelPrice,
  workspaceRefusal,
  type DeepWorkDeps,
  type DeepWorkStart,
} from '../workflow/deepWorkTurn';
import type { RunRead } from '../workflow/runStore';
import { untrusted } from '../../core/council/wording/markdown';
import { goalFromSession } from './planGoal';
import { parsePlanRequest } from './planRequest';
import { renderCheckpoint, renderCompleted } from './planResponse';
import { renderStopped } from '../workflow/workflowResponse';
import { PLAN_DOOR } from '../workflow/deepWorkResult';
import { writeRunReport } from './planReport';

/** The `/plan` hook of the participant (`CouncilEnvironment['plan']`). */
export type PlanHandler = (
  goal: string,
  session: SessionLog | undefined,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  /** Context the user attached (this request's and the council session's), already bounded. */
  attached?: readonly AttachedItem[],
) => Promise<vscode.ChatResult>;

const HOW_TO =
  'Type a goal after `/plan`, e.g. `@council /plan Add input validation to the settings form`, or ask `@council` a question first and press **Plan this** under its answer.';

/** How many other runs a bare resume lists. */
const OTHER_RUNS_LISTED = 5;

/**
 * A bare `/plan resume`: the newest run that can be resumed. Newer runs it passes over are named with why; the
 * other readable runs are listed with the command that resumes each.
 */
function newestReadablePlan(deps: DeepWorkDeps, stream: vscode.ChatResponseStream): RunRead {
  const { run, passedOver, others } = deps.runs.newestReadable('plan');
  for (const skipped of passedOver) {
    if (skipped.kind === 'damaged') deps.log.logError(skipped.error, `reading plan run ${skipped.runId}`);
    const why =
      skipped.kind === 'newer'
        ? 'it was saved by a newer version of Council'
        : 'it is damaged (the details are in the Council output channel)';
    stream.markdown(`_The newer plan run \`${skipped.runId}\` cannot be resumed: ${why}._\n\n`);
  }
  if (!run) return { kind: 'missing' };
  if (passedOver.length > 0 || others.length > 0)
    stream.markdown(`_Resuming \`${run.state.runId}\` (${run.status}), the newest run that can be resumed._\n\n`);
  if (others.length > 0) {
    const listed = others
      .slice(0, OTHER_RUNS_LISTED)
      .map(
        other =>
          `- \`/plan resume ${other.state.runId}\` — ${untrusted(other.state.context.goal).replace(/\s+/g, ' ').slice(0, 80)} (${other.status}, ${other.updatedAt.slice(0, 16).replace('T', ' ')})`,
      );
    stream.markdown(`Other plan runs:\n\n${listed.join('\n')}\n\n`);
  }
  return { kind: 'found', run };
}

/**
 * `/plan`: runs the built-in `plan` workflow (discovery -> planning -> tickets; a workspace may override it) on the
 * workspace with the chat's model, through the workflow engine. The response pauses at every checkpoint (its state
 * saved per run id in workspace storage); the buttons resume it. A completed run writes its report under
 * `.council/runs/<run-id>/` and offers each ticket's changes behind a confirmation. Refused in an untrusted workspace.
 */
export function createPlanHandler(deps: DeepWorkDeps): PlanHandler {
  return async (text, session, request, stream, token, attached = []) => {
    const refused = workspaceRefusal({
      untrusted:
        '`/plan` reads your workspace and proposes changes, so it only runs in a trusted workspace. Trust this workspace (**Manage Workspace Trust**) and try again.',
      noFolder: '`/plan` works on a workspace folder: open one and try again.',
    });
    if (refused) return say(stream, refused, PLAN_DOOR);
    const parsed = parsePlanRequest(text);
    let start: DeepWorkStart;
    if (parsed.kind === 'control') {
      const run = resumableRun(
        deps,
        PLAN_DOOR,
        parsed.runId ? deps.runs.read(parsed.runId) : newestReadablePlan(deps, stream),
        stream,
        `There is no saved plan run${parsed.runId ? ` \`${parsed.runId}\`` : ''} in this workspace. ${HOW_TO}`,
      );
      if (!('state' in run)) return run;
      const { state } = run;
      if (parsed.action === 'abort' && !state.pendingCheckpoint) {
        await deps.runs.save(state, 'aborted');
        return { metadata: renderStopped(stream, PLAN_DOOR, { status: 'aborted', state, message: '' }) };
      }
      // The decision a button's action makes at the run's checkpoint (none when the run is not at one).
      const pending = state.pendingCheckpoint;
      const feedback = parsed.text ? { feedback: parsed.text } : {};
      const decision =
        pending && parsed.action !== 'resume' ? optionFor(pending, { action: parsed.action, ...feedback }) : undefined;
      // Text after `resume` answers the question a `needs_user` stop asked.
      const resumed = !decision && parsed.text ? withUserAnswer(state, parsed.text) : state;
      start = { resume: { state: resumed, ...(decision ? { decision } : {}) } };
    } else {
      const goal = parsed.kind === 'start' ? { goal: parsed.goal } : goalFromSession(session);
      if (!goal) return say(stream, `Nothing to plan yet. ${HOW_TO}`, PLAN_DOOR);
      start = { start: goal };
    }
    return runDeepWorkTurn(deps, {
      door: PLAN_DOOR,
      workflowName: 'plan',
      start,
      request,
      stream,
      token,
      attached,
      paused: (outcome, workflow) => {
        const price = runModelPrice(request.model);
        const stillToRun = workflowForecastSentence(forecastWorkflow(workflow, outcome.state), price);
        return renderCheckpoint(stream, workflow, outcome, stillToRun);
      },
      completed: async (state, workflow) => {
        const files = await writeRunReport(state, workflowMetadataOf(workflow, state, systemClock.now()));
        return renderCompleted(stream, workflow, state, files);
      },
    });
  };
}
