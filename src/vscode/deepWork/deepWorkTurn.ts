import * as vscode from 'vscode';
import { v4 as uuid } from 'uuid';
import { systemClock } from '../../core/clock';
import type { AttachedItem } from '../../core/session/attachedItem';
import type { SpendTotals } from '../../core/llm/spending/ledger';
import { PriceBook, type ModelPrice } from '../../core/llm/spending/prices';
import { spendBrief } from '../../core/llm/spending/spendText';
import { describeTurnStop } from '../../core/llm/turnStop';
import { newRunFolder, newRunId } from '../../core/deepWork/runHome';
import type { WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import { runSpent, type WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import { runDeepWork, type DeepWorkRequest } from '../../core/deepWork/runDeepWork';
import { forecastWorkflow, mostTokensPerRequest, workflowForecastSentence } from '../../core/deepWork/workflowForecast';
import { forecastHistory } from '../../core/deepWork/forecastHistory';
import type { WorkflowOutcome } from '../../core/workflow/engine/runWorkflow';
import type { ScriptSandbox } from '../../core/workflow/sandbox/scriptSandbox';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import { tracedModel } from '../languageModel/tracedModel';
import type { CouncilLog } from '../log';
import { planContributors } from './planContributors';
import { progressMessage } from '../../core/deepWork/planProgress';
import type { CouncilSettings } from '../settings';
import { VsCodeWorkspaceReader } from '../workspace/vscodeWorkspaceReader';
import type { RunRead, RunStore } from './runStore';
import type { StoredWorkflowRun } from '../../core/deepWork/storedWorkflowRun';
import type { WorkflowCatalog } from '../../core/deepWork/buildWorkflowCatalog';
import { skillTools } from './skillTools';
import { subagentModels } from './subagentModels';
import { WorkspaceRunOutputs } from './workflowOutputs';
import { overrideNotice } from '../../core/deepWork/buildWorkflowCatalog';
import { stoppedReport } from './workflowResponse';
import { workflowProgressMessage } from '../../core/deepWork/workflowProgress';
import { boardOf, lastCompletedStage, readBoard } from '../../core/plan/pipelineBoard';
import type { PipelineStage } from '../../core/plan/schemas/agentType';
import type { WorkflowRunStatus } from '../../core/deepWork/storedWorkflowRun';
import { runNextSteps } from '../../core/deepWork/runNextSteps';
import { decisionFor, type RunControl } from '../../core/deepWork/runControl';
import { withUserAnswer } from '../../core/deepWork/runDeepWork';
import type { NextStep, RunCommand } from '../../core/nextSteps';
import { savedProgress } from './planSummary';

/** What `/plan` and `/workflow` need from the extension. */
export interface DeepWorkDeps {
  readonly runs: RunStore;
  readonly log: CouncilLog;
  /** The built-in and (in a trusted workspace) the workspace's workflows, read fresh for each request. */
  readonly catalog: () => Promise<WorkflowCatalog>;
  readonly sandbox: ScriptSandbox;
}

/**
 * What a door gives a deep-work request besides the request itself: the model, the token its tools run under, the
 * context the user attached, and where what the turn says as it goes lands (the chat writes a note at once and shows
 * progress in the response; a tool keeps the notes for its result and shows progress in its notification).
 */
export interface DeepWorkCall {
  readonly model: vscode.LanguageModelChat;
  /** Undefined outside a chat: tools the run invokes then ask for confirmation on their own. */
  readonly toolInvocationToken: vscode.ChatParticipantToolToken | undefined;
  readonly token: vscode.CancellationToken;
  /** The settings the door read once for this request; the turn never reads them again. */
  readonly settings: CouncilSettings;
  /**
   * The workflows the door already read for this call (a tool's confirmation forecast a run of one of them), so the
   * run is the workflow that was forecast; when absent the turn reads the catalogue once.
   */
  readonly catalog?: Promise<WorkflowCatalog>;
  readonly attached?: readonly AttachedItem[];
  /** A Markdown note said before the answer (the forecast, a warning, a subagent's model). */
  readonly say: (markdown: string) => void;
  readonly progress: (message: string) => void;
}

/** What a `/plan` or `/workflow` request came to, for its door to render (the chat: Markdown and buttons; a tool: text and next calls). */
export interface DeepWorkAnswer {
  /** The command that answered. */
  readonly command: RunCommand;
  /** What happened, as Markdown (after the notes the turn said as it went). */
  readonly report: readonly ReportPart[];
  /** The run the answer is about, and where it stands; absent when no run started. */
  readonly run?: {
    readonly runId: string;
    readonly status: WorkflowRunStatus;
    /** The stage a `/plan` run completed last. */
    readonly stage?: PipelineStage;
    /** What the run has spent over all its turns. */
    readonly spent: SpendTotals;
  };
  /** Why the request failed or was refused (the chat's error box). */
  readonly error?: string;
  /** What the user can do next (a checkpoint's choices, Resume, Try again). */
  readonly next: readonly NextStep[];
}

/**
 * A piece of an answer's Markdown: text, or a Markdown string of its own that enables one command link (an Apply
 * button), so model text around it never runs a command.
 */
export type ReportPart = string | vscode.MarkdownString;

/** Where a turn starts: a new run, or a stored run (with the decision for its checkpoint, if one was made). */
export type DeepWorkStart = Pick<DeepWorkRequest, 'start' | 'resume'>;

/** A run paused at a checkpoint. */
export type PausedOutcome = Extract<WorkflowOutcome, { readonly status: 'paused' }>;

/** What a door shows of a paused or completed run: its report (the run, its status and next steps are added). */
type RunReport = (
  state: WorkflowRunState,
  workflow: WorkflowDefinition,
) => Promise<readonly ReportPart[]> | readonly ReportPart[];

/** One turn of a run, as both commands start it, with how each shows a paused and a completed run. */
export interface DeepWorkTurn {
  readonly command: RunCommand;
  /** The workflow to run, by name (looked up in the catalogue read for this request). */
  readonly workflowName: string;
  readonly start: DeepWorkStart;
  readonly call: DeepWorkCall;
  readonly paused: (outcome: PausedOutcome, workflow: WorkflowDefinition) => string;
  readonly completed: RunReport;
}

/** An answer that only says `report` (about `state`'s run, when given). */
export function said(
  command: RunCommand,
  report: string | readonly ReportPart[],
  run?: { readonly state: WorkflowRunState; readonly status: WorkflowRunStatus },
): DeepWorkAnswer {
  const parts = typeof report === 'string' ? [report] : report;
  return run ? runAnswer(command, run.state, run.status, parts) : { command, report: parts, next: [] };
}

/** An answer whose `error` goes in the chat's error box (about `state`'s run, when given). */
function refused(
  command: RunCommand,
  error: string,
  run?: { readonly state: WorkflowRunState; readonly status: WorkflowRunStatus },
): DeepWorkAnswer {
  return { ...said(command, [], run), error };
}

/** The answer about a run that is now `status`: its id, last stage, cost and next steps (decided in the core). */
function runAnswer(
  command: RunCommand,
  state: WorkflowRunState,
  status: WorkflowRunStatus,
  report: string | readonly ReportPart[],
): DeepWorkAnswer {
  const board = boardOf(state.blackboard);
  const stage = board && lastCompletedStage(board);
  return {
    command,
    report: typeof report === 'string' ? [report] : report,
    run: { runId: state.runId, status, ...(stage ? { stage } : {}), spent: runSpent(state) },
    next: runNextSteps({ runId: state.runId, command }, status, state.pendingCheckpoint),
  };
}

/**
 * The saved run to go on with, or the answer that says why there is none: not saved here (`missing`, in the
 * command's words), saved by a newer Council, or damaged (the details go to the log).
 */
export function resumableRun(
  deps: DeepWorkDeps,
  command: RunCommand,
  read: RunRead,
  say: (markdown: string) => void,
  missing: string,
): StoredWorkflowRun | DeepWorkAnswer {
  if (read.kind === 'found') {
    for (const warning of read.warnings ?? []) say(`> **Warning:** ${warning}\n\n`);
    return read.run;
  }
  if (read.kind === 'missing') return said(command, missing);
  if (read.kind === 'newer') return refused(command, read.error.message);
  const plan = command === 'plan';
  deps.log.logError(read.error, `reading ${plan ? 'plan' : 'workflow'} run ${read.runId}`);
  const details = 'the details are in the Council output channel';
  return refused(
    command,
    plan
      ? `The saved plan run \`${read.runId}\` is damaged and cannot be resumed (${details}). Start a new run with \`/plan <goal>\`.`
      : `The saved run \`${read.runId}\` is damaged and cannot be resumed (${details}). Start a new run.`,
  );
}

/**
 * Where a request to continue a run starts, the same for `/plan` and `/workflow` (one grammar on the one engine),
 * or the answer when it goes no further. `abort` ends a run that is not at a checkpoint; at one, `/plan` takes the
 * checkpoint's abort option (its own words, resumable) and `/workflow` ends the run. A pick is checked against the
 * pending checkpoint; `/plan` goes on without one when the run is not at a checkpoint (its words are also Resume's).
 * Text after `resume` answers the question a stopped run asked.
 */
export async function continueRun(
  deps: DeepWorkDeps,
  command: RunCommand,
  run: StoredWorkflowRun,
  control: RunControl,
): Promise<DeepWorkStart | DeepWorkAnswer> {
  const { state } = run;
  const pending = state.pendingCheckpoint;
  const plan = command === 'plan';
  if (control.kind === 'abort' && (!pending || !plan)) {
    await deps.runs.save(state, 'aborted');
    return plan
      ? runAnswer(command, state, 'aborted', stoppedReport(command, { status: 'aborted', state, message: '' }))
      : said(command, `Run \`${state.runId}\` aborted. Its files stay in \`${state.context.output_dir}/\`.`, {
          state,
          status: 'aborted',
        });
  }
  if (control.kind === 'resume') return { resume: { state: pending ? state : withUserAnswer(state, control.answer) } };
  if (!pending) {
    if (plan) return { resume: { state: withUserAnswer(state, control.feedback) } };
    return said(command, `Run \`${state.runId}\` is not waiting at a checkpoint (it is ${run.status}).`, {
      state,
      status: run.status,
    });
  }
  const decision = decisionFor(
    pending,
    control.kind === 'abort' ? { action: 'abort' } : control.pick,
    control.feedback,
  );
  if ('refused' in decision) return said(command, decision.refused, { state, status: 'paused' });
  return { resume: { state, decision } };
}

/** Why a run cannot start here (an untrusted workspace, no folder open), in the handler's words; undefined when it can. */
export function workspaceRefusal(words: { readonly untrusted: string; readonly noFolder: string }): string | undefined {
  if (!vscode.workspace.isTrusted) return words.untrusted;
  if (!vscode.workspace.workspaceFolders?.length) return words.noFolder;
  return undefined;
}

/** What earlier runs of `workflow` in this workspace spent, phase by phase (`except`: the run being forecast). */
export function workspaceHistory(deps: Pick<DeepWorkDeps, 'runs'>, workflow: string, except?: string) {
  return forecastHistory(
    workflow,
    deps.runs.list().map(run => run.state),
    except,
  );
}

/** What a stopped run kept, when it was saved (`/plan` names its last stage instead). */
const PHASES_KEPT = 'The run is saved as of its last completed phase.';

/** What the call's model costs per token, by the user's prices and the defaults (undefined: unknown). */
export function runModelPrice(
  call: Pick<DeepWorkCall, 'model' | 'settings'>,
  prices = new PriceBook(call.settings.spending.prices),
): ModelPrice | undefined {
  return prices.priceOf(call.model);
}

/**
 * Runs one turn of a workflow with the door's model and answers it: the run's files in its own folder (`/plan`'s
 * under `.council/runs/<run-id>/`, any other workflow's under `.council/workflow-runs/<run-id>/`),
 * its state saved in workspace storage after every phase and at the turn's end, its checkpoints pausing the turn (a
 * pick resumes it). A paused or completed run is reported by its command; a stop (Stop, a question, an abort, a
 * failure) is reported here, the same for both commands.
 */
export async function runDeepWorkTurn(deps: DeepWorkDeps, turn: DeepWorkTurn): Promise<DeepWorkAnswer> {
  const { start, call, command } = turn;
  const { token } = call;
  const found = workflowNamed(await (call.catalog ?? deps.catalog()), turn.workflowName);
  if ('missing' in found) return refused(command, found.missing);
  const { workflow } = found;
  const resumed = start.resume?.state;
  const ids = { next: () => uuid() };
  const runId = resumed?.runId ?? newRunId(workflow.name, ids);
  const reader = new VsCodeWorkspaceReader();
  const { spending } = call.settings;
  const prices = new PriceBook(spending.prices);
  // What the phases still to run will cost, before anything is spent, at the model's price (and, resumed, what the
  // run has spent), learnt from what earlier runs of the workflow in this workspace spent.
  const before = resumed ? `So far: ${spendBrief(runSpent(resumed))}. ` : '';
  const model = adaptLanguageModel(call.model);
  const history = workspaceHistory(deps, workflow.name, resumed?.runId);
  const toRun = forecastWorkflow(workflow, resumed, spending.script.maxModelCalls, model, history);
  call.say(
    `_${before}${workflowForecastSentence(toRun, runModelPrice(call, prices), mostTokensPerRequest(resumed))}_\n\n`,
  );
  // Each phase (stage) is checked against the run's credit limit by the engine before it starts, the first included.
  // Said where it runs, before anything is spent: the workspace's file runs its own agents and scripts.
  const replaced = overrideNotice(workflow);
  if (replaced) call.say(`_${replaced}_\n\n`);
  // Every progress line carries what the run has spent so far (all its turns).
  let spent: SpendTotals | undefined;
  const progress = (message: string) => call.progress(spent ? `${message} (${spendBrief(spent)})` : message);
  call.progress(`${resumed ? 'Resuming' : 'Starting'} ${workflow.name} run ${runId}…`);
  // Every request the run sends is traced into the log, as a council turn's are (councilDeps.ts).
  const traced = (chat: vscode.LanguageModelChat) => tracedModel(adaptLanguageModel(chat), deps.log);
  let outcome: WorkflowOutcome;
  try {
    outcome = await runDeepWork({
      workflow,
      model: traced(call.model),
      modelFor: subagentModels(call.model, message => call.say(`_${message}_\n\n`), traced),
      reader,
      runId,
      // A resumed run keeps its folder (a workflow run from before they had their own keeps `.council/runs/`).
      outputs: new WorkspaceRunOutputs(resumed?.context.output_dir ?? newRunFolder(workflow.name, runId)),
      clock: systemClock,
      ids,
      token,
      spending: {
        limits: spending.run,
        prices,
        script: spending.script,
        onSpend: totals => (spent = totals),
      },
      sandbox: deps.sandbox,
      tools: skillTools(call.toolInvocationToken),
      onProgress: event => {
        if (event.kind === 'reply-normalized')
          deps.log.info(
            `run ${runId}, ${event.agentId} (${event.reply}): normalized the model's reply: ${event.changes.join('; ')}`,
          );
        if (event.kind === 'tool-schema-refused')
          deps.log.info(
            `run ${runId}, ${event.agentId} (${event.reply}): the model refused the tool schema; asked for JSON in the reply instead`,
          );
        const message = progressMessage(event);
        if (message) progress(message);
      },
      onWorkflowProgress: event => {
        const message = workflowProgressMessage(event);
        if (message) progress(message);
      },
      onSave: state => deps.runs.save(state, 'running'),
      contributors: planContributors(reader, deps.runs, call.attached ?? []),
      ...start,
    });
  } catch (error) {
    // runDeepWork reports model failures, scripts and Stop as outcomes; what reaches here is unexpected.
    const saved = deps.runs.load(runId);
    const kept = saved ? PHASES_KEPT : 'Nothing was saved yet.';
    const stop = describeTurnStop(
      error,
      { kept, button: token.isCancellationRequested ? 'Resume' : 'Try again' },
      token.isCancellationRequested,
    );
    if (saved) await deps.runs.save(saved.state, stop.kind);
    const run = saved ? { state: saved.state, status: stop.kind } : undefined;
    if (stop.kind === 'cancelled') return said(command, stop.message, run);
    deps.log.logError(error, `run ${runId}: ${stop.detail}`);
    return refused(command, stop.message, run);
  }
  // Stored with its failure, its abort sentence or its question, if any.
  const message = 'question' in outcome ? outcome.question : 'message' in outcome ? outcome.message : undefined;
  await deps.runs.save(outcome.state, outcome.status, message);
  if (outcome.status === 'paused') return runAnswer(command, outcome.state, 'paused', turn.paused(outcome, workflow));
  if (outcome.status === 'completed')
    return runAnswer(command, outcome.state, 'completed', await turn.completed(outcome.state, workflow));
  const stopped = runAnswer(command, outcome.state, outcome.status, stoppedReport(command, outcome));
  if (outcome.status !== 'failed') return stopped;
  const kept = command === 'plan' ? savedProgress(readBoard(outcome.state.blackboard)) : PHASES_KEPT;
  const failure = describeTurnStop(outcome.error, { kept, button: 'Try again' });
  if (failure.kind !== 'failed') return stopped;
  deps.log.logError(outcome.error, `run ${runId}: ${failure.detail}`);
  return { ...stopped, error: failure.message };
}

/** The workflow named `name`, or the sentence that says why there is none (with the file problems, if any). */
export function workflowNamed(
  catalog: WorkflowCatalog,
  name: string,
): { readonly workflow: WorkflowDefinition } | { readonly missing: string } {
  const workflow = catalog.get(name);
  if (workflow) return { workflow };
  const problems = catalog.problems
    .map(problem => `- \`${problem.source.path}\`: ${problem.issues[0]?.message ?? 'cannot be read'}`)
    .join('\n');
  const known = catalog.workflows.map(definition => `\`${definition.name}\``).join(', ') || 'none';
  return {
    missing: `There is no workflow \`${name}\`. Workflows here: ${known}.${problems ? `\n\nThese workflow files have problems:\n${problems}` : ''}`,
  };
}
