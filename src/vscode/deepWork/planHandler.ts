import type { SessionLog } from '../../core/council/sessionLog';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import { forecastWorkflow, mostTokensPerRequest, workflowForecastSentence } from '../../core/deepWork/workflowForecast';
import { workflowMetadataOf } from '../../core/workflow/engine/workflowMetadata';
import { systemClock } from '../../core/clock';
import {
  continueRun,
  resumableRun,
  runDeepWorkTurn,
  said,
  runModelPrice,
  workspaceHistory,
  workspaceRefusal,
  type DeepWorkAnswer,
  type DeepWorkCall,
  type DeepWorkDeps,
  type DeepWorkStart,
} from './deepWorkTurn';
import type { RunRead } from './runStore';
import { untrusted } from '../../core/council/wording/markdown';
import { goalFromSession } from './planGoal';
import type { PlanRequest } from './planRequest';
import { planCheckpointReport, planCompletedReport } from './planResponse';
import { writeRunReport } from './planReport';

/**
 * `/plan` and `council_plan`: one typed request (parsed by the chat, validated by the tool) and the council session
 * whose answer a request without a goal plans; the answer is rendered by each door.
 */
export type PlanHandler = (
  request: PlanRequest,
  session: SessionLog | undefined,
  call: DeepWorkCall,
) => Promise<DeepWorkAnswer>;

const HOW_TO =
  'Type a goal after `/plan`, e.g. `@council /plan Add input validation to the settings form`, or ask `@council` a question first and press **Plan this** under its answer.';

/** How many other runs a bare resume lists. */
const OTHER_RUNS_LISTED = 5;

/**
 * A bare `/plan resume`: the newest run that can be resumed. Newer runs it passes over are named with why; the
 * other readable runs are listed with the command that resumes each.
 */
function newestReadablePlan(deps: DeepWorkDeps, say: (markdown: string) => void): RunRead {
  const { run, passedOver, others } = deps.runs.newestReadable('plan');
  for (const skipped of passedOver) {
    if (skipped.kind === 'damaged') deps.log.logError(skipped.error, `reading plan run ${skipped.runId}`);
    const why =
      skipped.kind === 'newer'
        ? 'it was saved by a newer version of Council'
        : 'it is damaged (the details are in the Council output channel)';
    say(`_The newer plan run \`${skipped.runId}\` cannot be resumed: ${why}._\n\n`);
  }
  if (!run) return { kind: 'missing' };
  if (passedOver.length > 0 || others.length > 0)
    say(`_Resuming \`${run.state.runId}\` (${run.status}), the newest run that can be resumed._\n\n`);
  if (others.length > 0) {
    const listed = others
      .slice(0, OTHER_RUNS_LISTED)
      .map(
        other =>
          `- \`/plan resume ${other.state.runId}\` — ${untrusted(other.state.context.goal).replace(/\s+/g, ' ').slice(0, 80)} (${other.status}, ${other.updatedAt.slice(0, 16).replace('T', ' ')})`,
      );
    say(`Other plan runs:\n\n${listed.join('\n')}\n\n`);
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
  return async (request, session, call) => {
    const refused = workspaceRefusal({
      untrusted:
        '`/plan` reads your workspace and proposes changes, so it only runs in a trusted workspace. Trust this workspace (**Manage Workspace Trust**) and try again.',
      noFolder: '`/plan` works on a workspace folder: open one and try again.',
    });
    if (refused) return said('plan', refused);
    let start: DeepWorkStart;
    if (request.kind === 'run') {
      const { runId } = request.control;
      const run = resumableRun(
        deps,
        'plan',
        runId ? deps.runs.read(runId) : newestReadablePlan(deps, call.say),
        call.say,
        `There is no saved plan run${runId ? ` \`${runId}\`` : ''} in this workspace. ${HOW_TO}`,
      );
      if (!('state' in run)) return run;
      const next = await continueRun(deps, 'plan', run, request.control);
      if ('command' in next) return next;
      start = next;
    } else {
      const goal = request.kind === 'start' ? { goal: request.goal } : goalFromSession(session);
      if (!goal) return said('plan', `Nothing to plan yet. ${HOW_TO}`);
      start = { start: goal };
    }
    return runDeepWorkTurn(deps, {
      command: 'plan',
      workflowName: 'plan',
      start,
      call,
      paused: (outcome, workflow) => {
        const price = runModelPrice(call);
        // Re-forecast from what the run has really made: its board (agents, tickets) and its tokens per request.
        const history = workspaceHistory(deps, workflow.name, outcome.state.runId);
        const toRun = forecastWorkflow(workflow, outcome.state, undefined, adaptLanguageModel(call.model), history);
        const stillToRun = workflowForecastSentence(toRun, price, mostTokensPerRequest(outcome.state));
        return planCheckpointReport(workflow, outcome, stillToRun);
      },
      completed: async (state, workflow) => {
        const files = await writeRunReport(state, workflowMetadataOf(workflow, state, systemClock.now()));
        return planCompletedReport(workflow, state, files);
      },
    });
  };
}
