import * as vscode from 'vscode';
import { v4 as uuid } from 'uuid';
import { systemClock } from '../../core/clock';
import type { SessionLog } from '../../core/council/sessionLog';
import type { AttachedItem } from '../../core/session/attachedItem';
import { UsageTally } from '../../core/llm/usage';
import { BlackboardHistory } from '../../core/pipeline/history/blackboardHistory';
import type { HistoryStore } from '../../core/pipeline/history/historyStore';
import { forecastSentence, forecastStages } from '../../core/pipeline/run/requestEstimate';
import { runPipeline, type StageCheckpoint } from '../../core/pipeline/run/runPipeline';
import type { PipelineRunOutcome } from '../../core/pipeline/run/runOutcome';
import type { PipelineRunState } from '../../core/pipeline/run/runState';
import { adaptLanguageModel } from '../languageModelAdapter';
import type { CouncilLog } from '../log';
import { planContributors } from './planContributors';
import { goalFromSession, type PlanGoal } from './planGoal';
import { progressMessage } from './planProgress';
import { parsePlanRequest } from './planRequest';
import { outcomeMessage, renderCheckpoint, renderCompleted, renderStopped, statusOf } from './planResponse';
import { planFailure, savedProgress } from './planStop';
import { describeTurnStop } from '../../core/llm/turnStop';
import type { PlanResultMetadata } from './planResult';
import type { PlanRunStore } from './planRunStore';
import { writeRunReport } from './planReport';
import { lastCompletedStage, redoStage, skipRemainingStages, withUserAnswer } from './runControl';
import { VsCodeWorkspaceReader } from './vscodeWorkspaceReader';

/** What `/plan` needs from the extension. */
export interface PlanHandlerDeps {
  readonly runs: PlanRunStore;
  readonly history: HistoryStore;
  readonly log: CouncilLog;
}

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

/** Where a request starts: a new goal, or a stored run's state (already changed by the button's action). */
type Start =
  | { readonly kind: 'new'; readonly goal: PlanGoal }
  | { readonly kind: 'resume'; readonly state: PipelineRunState; /** Requests the run spent in earlier turns. */ readonly requestsUsed: number };

function say(stream: vscode.ChatResponseStream, text: string, metadata: PlanResultMetadata = { plan: 1 }): vscode.ChatResult {
  stream.markdown(text);
  return { metadata };
}

/**
 * `/plan`: runs the deep-work pipeline (discovery -> planning -> tickets) on the workspace with the chat's model.
 * The response pauses at every checkpoint (its state saved per run id in workspace storage); the buttons resume it.
 * A completed run writes its report under `.council/runs/<run-id>/` and offers each ticket's changes behind a
 * confirmation. Refused in an untrusted workspace.
 */
export function createPlanHandler(deps: PlanHandlerDeps): PlanHandler {
  return async (text, session, request, stream, token, attached = []) => {
    if (!vscode.workspace.isTrusted) {
      return say(stream, '`/plan` reads your workspace and proposes changes, so it only runs in a trusted workspace. Trust this workspace (**Manage Workspace Trust**) and try again.');
    }
    if (!vscode.workspace.workspaceFolders?.length) return say(stream, '`/plan` works on a workspace folder: open one and try again.');
    const parsed = parsePlanRequest(text);
    let start: Start;
    if (parsed.kind === 'control') {
      const read = parsed.runId ? deps.runs.read(parsed.runId) : deps.runs.latest();
      if (read.kind === 'missing') return say(stream, `There is no saved plan run${parsed.runId ? ` \`${parsed.runId}\`` : ''} in this workspace. ${HOW_TO}`);
      if (read.kind === 'newer') return { errorDetails: { message: read.error.message }, metadata: { plan: 1 } };
      if (read.kind === 'corrupt') {
        deps.log.logError(read.error, `reading plan run ${read.runId}`);
        return { errorDetails: { message: `The saved plan run \`${read.runId}\` is damaged and cannot be resumed (the details are in the Council output channel). Start a new run with \`/plan <goal>\`.` }, metadata: { plan: 1 } };
      }
      const stored = read.run;
      const { state } = stored;
      if (parsed.action === 'abort') {
        await deps.runs.save(state, 'aborted', undefined, stored.requestsUsed);
        return { metadata: renderStopped(stream, { status: 'aborted', state }) };
      }
      const last = lastCompletedStage(state);
      const next =
        parsed.action === 'redo' && last ? redoStage(state, last) : parsed.action === 'skip' ? skipRemainingStages(state) : withUserAnswer(state, parsed.text);
      start = { kind: 'resume', state: next, requestsUsed: stored.requestsUsed ?? 0 };
    } else {
      const goal = parsed.kind === 'start' ? { goal: parsed.goal, constraints: [] } : goalFromSession(session);
      if (!goal) return say(stream, `Nothing to plan yet. ${HOW_TO}`);
      start = { kind: 'new', goal };
    }
    return run(deps, start, request, stream, token, attached);
  };
}

async function run(
  deps: PlanHandlerDeps,
  start: Start,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  attached: readonly AttachedItem[],
): Promise<vscode.ChatResult> {
  const ids = { next: () => uuid() };
  const runId = start.kind === 'resume' ? start.state.runId : `wf-${uuid()}`;
  const reader = new VsCodeWorkspaceReader();
  let paused: StageCheckpoint | undefined;
  stream.progress(start.kind === 'resume' ? `Resuming plan run ${runId}…` : `Starting plan run ${runId}…`);
  // What the run will cost, before it spends anything (each request is a premium request through Copilot).
  stream.markdown(`_${forecastSentence(forecastStages(start.kind === 'resume' ? start.state : undefined))}_\n\n`);
  const usage = new UsageTally();
  const used = () => (start.kind === 'resume' ? start.requestsUsed : 0) + usage.calls;
  let outcome: PipelineRunOutcome;
  try {
    outcome = await runPipeline({
      goal: start.kind === 'new' ? start.goal.goal : start.state.goal,
      constraints: start.kind === 'new' ? start.goal.constraints : start.state.constraints,
      model: adaptLanguageModel(request.model),
      reader,
      history: new BlackboardHistory(deps.history, runId, systemClock, ids),
      clock: systemClock,
      ids,
      token,
      usage,
      onProgress: event => {
        if (event.kind === 'reply-normalized') deps.log.info(`plan run ${runId}, ${event.agentId} (${event.reply}): normalized the model's reply: ${event.changes.join('; ')}`);
        const message = progressMessage(event);
        if (message) stream.progress(message);
      },
      // Every checkpoint but the last pauses the run: its state is saved, and the buttons resume it in a new request.
      checkpoint: async checkpoint => {
        if (checkpoint.state.nextStage === null) return 'continue';
        await deps.runs.save(checkpoint.state, 'paused', undefined, used());
        paused = checkpoint;
        return 'abort';
      },
      contributors: planContributors(reader, deps.runs, attached),
      ...(start.kind === 'resume' ? { resume: start.state } : {}),
    });
  } catch (error) {
    // runPipeline reports model failures and Stop as outcomes; what reaches here is unexpected.
    const saved = deps.runs.load(runId);
    const stop = describeTurnStop(error, { kept: saved ? savedProgress(saved.state) : 'No stage was completed yet.', button: token.isCancellationRequested ? 'Resume' : 'Try again' }, token.isCancellationRequested);
    const status = stop.kind === 'cancelled' ? ('cancelled' as const) : ('failed' as const);
    if (saved) await deps.runs.save(saved.state, status, undefined, used());
    const metadata: PlanResultMetadata = { plan: 1, ...(saved ? { runId, status, nextStage: saved.state.nextStage } : {}) };
    if (stop.kind === 'cancelled') return say(stream, stop.message, metadata);
    deps.log.logError(error, `plan run ${runId}: ${stop.detail}`);
    return { errorDetails: { message: stop.message }, metadata };
  }
  const status = statusOf(outcome, paused !== undefined);
  await deps.runs.save(outcome.state, status, outcomeMessage(outcome), used());
  if (status === 'paused' && paused) return { metadata: renderCheckpoint(stream, paused, used()) };
  if (outcome.status === 'completed') {
    const files = await writeRunReport(outcome.state);
    return { metadata: renderCompleted(stream, outcome.state, files, used()) };
  }
  const failure = planFailure(outcome);
  if (failure) deps.log.logError(new Error(failure.detail), `plan run ${runId}`);
  return { metadata: renderStopped(stream, outcome), ...(failure ? { errorDetails: { message: failure.message } } : {}) };
}
