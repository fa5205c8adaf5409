import { randomUUID } from 'node:crypto';
import { systemClock } from '../../core/clock';
import type { WorkflowCatalog } from '../../core/deepWork/buildWorkflowCatalog';
import { runControlOf, type PlanInput, type WorkflowInput } from '../../core/deepWork/deepWorkInput';
import { progressMessage } from '../../core/deepWork/planProgress';
import { decisionFor, type RunControl } from '../../core/deepWork/runControl';
import { runDeepWork, withUserAnswer, type DeepWorkRequest } from '../../core/deepWork/runDeepWork';
import { runNextSteps } from '../../core/deepWork/runNextSteps';
import type { StoredWorkflowRun, WorkflowRunStatus } from '../../core/deepWork/storedWorkflowRun';
import { forecastWorkflow, mostTokensPerRequest, workflowForecastSentence } from '../../core/deepWork/workflowForecast';
import { forecastHistory } from '../../core/deepWork/forecastHistory';
import { workflowProgressMessage } from '../../core/deepWork/workflowProgress';
import {
  CancelledError,
  LanguageModelFailure,
  type CancellationSignal,
  type LanguageModel,
} from '../../core/llm/languageModel';
import type { SpendingLimits } from '../../core/llm/spending/governor';
import type { SpendTotals } from '../../core/llm/spending/ledger';
import type { LimitAdvice } from '../../core/llm/spending/limitAdvice';
import type { PriceBook } from '../../core/llm/spending/prices';
import { spendBrief } from '../../core/llm/spending/spendText';
import type { NextStep, RunCommand } from '../../core/nextSteps';
import { boardOf, lastCompletedStage } from '../../core/plan/pipelineBoard';
import { pipelineReportFiles, runFolder } from '../../core/plan/run/report';
import type { PipelineStage } from '../../core/plan/schemas/agentType';
import { refusalAdvice, refusalReason, refusedChanges } from '../../core/plan/writablePath';
import { newRunFolder, newRunId } from '../../core/deepWork/runHome';
import { activeAssumptions } from '../../core/session/selectors';
import type { WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import type { WorkflowOutcome } from '../../core/workflow/engine/runWorkflow';
import { workflowMetadataOf } from '../../core/workflow/engine/workflowMetadata';
import { runSpent, type WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import type { ScriptSandbox } from '../../core/workflow/sandbox/scriptSandbox';
import { NodeWorkspaceReader } from '../nodeWorkspaceReader';
import type { SessionFiles } from '../sessionFiles';
import { checkpointText, planCompletedText, workflowCompletedText, workflowListText } from './deepWorkText';
import { ProjectRunOutputs } from './projectRunOutputs';
import type { RunFiles } from './runFiles';

/*
 * `council plan` / `council workflow` and the MCP server's `council_plan` / `council_workflow`: one turn of a run, from
 * the tools' input (core/deepWork/deepWorkInput.ts) to a typed result, on the same engine, run limits and stored
 * format as the extension's `/plan` and `/workflow`. Nothing outside `.council/runs/` is written here: a ticket's
 * proposed changes are applied only by applyTicketChanges, after a confirmation.
 */

/** What a turn needs from the door that runs it. */
export interface DeepWorkDoor {
  readonly project: string;
  readonly model: LanguageModel;
  readonly runs: RunFiles;
  readonly catalog: () => Promise<WorkflowCatalog>;
  readonly sandbox: ScriptSandbox;
  readonly spending: { readonly limits: SpendingLimits; readonly prices: PriceBook; readonly advice: LimitAdvice };
  readonly token: CancellationSignal;
  /** One line of progress (stderr in a terminal, a progress notification over MCP). */
  readonly progress: (message: string) => void;
  /** The saved council sessions, for `sessionId` (plan a session's answer). */
  readonly sessions: SessionFiles;
}

/** A ticket's proposed changes, by file (nothing applied). */
export interface TicketProposal {
  readonly ticketId: string;
  readonly changes: readonly string[];
  /** Why Apply refuses it, with what to do instead; absent when it can be applied. */
  readonly refused?: string;
}

/** What one turn came to: `--json` prints it; the terminal and MCP render it. */
export interface DeepWorkResult {
  readonly command: RunCommand;
  /** What happened, as text. */
  readonly report: string;
  /** The run the result is about; absent when no run started. */
  readonly run?: {
    readonly runId: string;
    readonly workflow: string;
    readonly status: WorkflowRunStatus;
    /** The stage a `/plan` run completed last. */
    readonly stage?: PipelineStage;
    readonly spent: SpendTotals;
    /** The stored run and its folder of files. */
    readonly file: string;
    readonly folder: string;
  };
  /** The checkpoint a paused run waits at. */
  readonly checkpoint?: { readonly phase: string; readonly prompt: string };
  /** A completed `/plan` run's proposals, to apply after a confirmation. */
  readonly proposals?: readonly TicketProposal[];
  /** Why the request failed or was refused. */
  readonly error?: string;
  readonly next: readonly NextStep[];
}

type Start = Pick<DeepWorkRequest, 'start' | 'resume'>;

function said(command: RunCommand, report: string, error?: string): DeepWorkResult {
  return { command, report, next: [], ...(error ? { error } : {}) };
}

function runResult(
  door: DeepWorkDoor,
  command: RunCommand,
  state: WorkflowRunState,
  status: WorkflowRunStatus,
  report: string,
  error?: string,
): DeepWorkResult {
  // Only runs with pipeline stages have a board (a generic workflow gets one when its first such stage runs).
  const board = boardOf(state.blackboard);
  const stage = board && lastCompletedStage(board);
  const pending = status === 'paused' ? state.pendingCheckpoint : undefined;
  const proposals = (board?.stages.tickets?.agentResults ?? [])
    .filter(p => p.proposedChanges.length > 0)
    .map((p): TicketProposal => {
      const refused = refusedChanges(p.proposedChanges);
      return {
        ticketId: p.ticketId,
        changes: p.proposedChanges.map(c => `${c.kind} ${c.path}`),
        ...(refused.length
          ? { refused: `Council will not apply it: it ${refusalReason(refused)}. ${refusalAdvice('council plan')}` }
          : {}),
      };
    });
  return {
    command,
    report,
    run: {
      runId: state.runId,
      workflow: state.context.workflow.name,
      status,
      ...(stage ? { stage } : {}),
      spent: runSpent(state),
      file: door.runs.fileOf(state.runId),
      folder: state.context.output_dir ?? runFolder(state.runId),
    },
    ...(pending ? { checkpoint: { phase: pending.phase, prompt: pending.prompt } } : {}),
    ...(command === 'plan' && status === 'completed' && proposals.length ? { proposals } : {}),
    ...(error ? { error } : {}),
    next: runNextSteps({ runId: state.runId, command }, status, state.pendingCheckpoint),
  };
}

/** The saved run, or the result that says why it cannot go on. */
async function savedRun(
  door: DeepWorkDoor,
  command: RunCommand,
  runId: string,
): Promise<StoredWorkflowRun | DeepWorkResult> {
  const read = await door.runs.read(runId);
  if (read.kind === 'found') {
    for (const warning of read.warnings ?? []) door.progress(`Warning: ${warning}`);
    return read.run;
  }
  if (read.kind === 'missing') return said(command, '', `There is no saved run ${runId} in ${door.runs.folder}.`);
  return said(
    command,
    '',
    read.kind === 'newer'
      ? read.message
      : `The saved run ${runId} cannot be resumed: ${read.message} The file is left as it is; start a new run.`,
  );
}

/**
 * Where a request to continue a run starts (the extension's rules, deepWorkTurn.continueRun): `abort` ends a run not
 * at a checkpoint (at one, a plan run takes the checkpoint's abort option); a pick is checked against the pending
 * checkpoint; `resume` text answers the question a stopped run asked.
 */
async function continued(
  door: DeepWorkDoor,
  command: RunCommand,
  run: StoredWorkflowRun,
  control: RunControl,
): Promise<Start | DeepWorkResult> {
  const { state } = run;
  const pending = state.pendingCheckpoint;
  const plan = command === 'plan';
  if (control.kind === 'abort' && (!pending || !plan)) {
    await door.runs.save(state, 'aborted');
    return runResult(
      door,
      command,
      state,
      'aborted',
      `Run ${state.runId} aborted. Its files stay in ${state.context.output_dir}/.`,
    );
  }
  if (control.kind === 'resume') return { resume: { state: pending ? state : withUserAnswer(state, control.answer) } };
  if (!pending) {
    if (plan) return { resume: { state: withUserAnswer(state, control.feedback) } };
    return runResult(
      door,
      command,
      state,
      run.status,
      `Run ${state.runId} is not waiting at a checkpoint (it is ${run.status}).`,
    );
  }
  const decision = decisionFor(
    pending,
    control.kind === 'abort' ? { action: 'abort' } : control.pick,
    control.feedback,
  );
  if ('refused' in decision) return runResult(door, command, state, 'paused', '', decision.refused);
  return { resume: { state, decision } };
}

/** How a turn that threw stopped (runDeepWork reports known failures as outcomes; what throws is unexpected). */
function stopOf(error: unknown, cancelled: boolean): { status: 'cancelled' | 'failed'; what: string } {
  if (
    cancelled ||
    error instanceof CancelledError ||
    (error instanceof LanguageModelFailure && error.kind === 'cancelled')
  )
    return { status: 'cancelled', what: 'Stopped: the spending stopped.' };
  return { status: 'failed', what: `The run failed: ${error instanceof Error ? error.message : String(error)}` };
}

/** What a stopped run kept. */
const KEPT = 'The run is saved as of its last completed phase.';

/** One turn of `workflow` from `start`: runs to the next checkpoint, the end, or a stop; saves and reports it. */
async function turn(
  door: DeepWorkDoor,
  command: RunCommand,
  workflow: WorkflowDefinition,
  start: Start,
): Promise<DeepWorkResult> {
  const resumed = start.resume?.state;
  const ids = { next: randomUUID };
  const runId = resumed?.runId ?? newRunId(workflow.name, ids);
  // A resumed run keeps its folder; a new one gets its workflow's (`/plan`'s .council/runs, others' their own).
  const folder = resumed?.context.output_dir ?? newRunFolder(workflow.name, runId);
  const before = resumed ? `So far: ${spendBrief(runSpent(resumed))}. ` : '';
  // Learnt from what earlier runs of the workflow in this project spent.
  const history = forecastHistory(
    workflow.name,
    (await door.runs.list(workflow.name)).map(run => run.state),
    resumed?.runId,
  );
  const toRun = forecastWorkflow(workflow, resumed, undefined, door.model, history);
  door.progress(
    `${before}${workflowForecastSentence(toRun, door.spending.prices.priceOf(door.model), mostTokensPerRequest(resumed))}`,
  );
  let spent: SpendTotals | undefined;
  const progress = (message: string | undefined) => {
    if (message) door.progress(spent ? `${message} (${spendBrief(spent)})` : message);
  };
  progress(`${resumed ? 'Resuming' : 'Starting'} ${workflow.name} run ${runId}…`);
  const outputs = new ProjectRunOutputs(door.project, folder);
  let outcome: WorkflowOutcome;
  try {
    outcome = await runDeepWork({
      workflow,
      model: door.model,
      reader: new NodeWorkspaceReader(door.project),
      runId,
      outputs,
      clock: systemClock,
      ids,
      token: door.token,
      spending: { ...door.spending, onSpend: totals => (spent = totals) },
      sandbox: door.sandbox,
      onProgress: event => progress(progressMessage(event)),
      onWorkflowProgress: event => progress(workflowProgressMessage(event)),
      onSave: state => door.runs.save(state, 'running'),
      ...start,
    });
  } catch (error) {
    const stop = stopOf(error, door.token.isCancellationRequested);
    const saved = await door.runs.read(runId);
    if (saved.kind !== 'found') return said(command, '', `${stop.what} Nothing was saved.`);
    const message = `${stop.what} ${KEPT}`;
    await door.runs.save(saved.run.state, stop.status, message);
    return runResult(
      door,
      command,
      saved.run.state,
      stop.status,
      message,
      stop.status === 'failed' ? message : undefined,
    );
  }
  const message = 'question' in outcome ? outcome.question : 'message' in outcome ? outcome.message : undefined;
  await door.runs.save(outcome.state, outcome.status, message);
  const { state } = outcome;
  switch (outcome.status) {
    case 'paused':
      return runResult(door, command, state, 'paused', checkpointText(command, workflow, state, outcome.checkpoint));
    case 'completed': {
      if (command === 'workflow')
        return runResult(door, command, state, 'completed', workflowCompletedText(workflow, state));
      const files: string[] = [];
      for (const file of pipelineReportFiles(state, workflowMetadataOf(workflow, state, systemClock.now())))
        files.push((await outputs.write(file.path, file.content)).path);
      return runResult(door, command, state, 'completed', planCompletedText(state, files));
    }
    case 'cancelled':
      return runResult(door, command, state, 'cancelled', `Stopped: the spending stopped. ${KEPT}`);
    case 'aborted':
      return runResult(door, command, state, 'aborted', `${outcome.message} The run is saved.`);
    case 'needs_user':
      return runResult(
        door,
        command,
        state,
        'needs_user',
        `The run needs your answer before it can go on:\n\n  ${outcome.question.replace(/\n/g, '\n  ')}`,
      );
    case 'failed':
      return runResult(door, command, state, 'failed', '', `The run failed: ${outcome.message} ${KEPT}`);
  }
}

/** The workflow named `name`, or the result that says which exist. */
async function named(
  door: DeepWorkDoor,
  command: RunCommand,
  name: string,
): Promise<WorkflowDefinition | DeepWorkResult> {
  const catalog = await door.catalog();
  const workflow = catalog.get(name);
  if (workflow) return workflow;
  return said(command, '', `There is no workflow "${name}". ${workflowListText(catalog)}`);
}

/** Longest goal taken from a council answer, in characters (as the extension's planGoal). */
const MAX_GOAL_CHARS = 4000;

/** `council_plan` / `council plan`: a goal (or a saved council session's answer) to plan, or a run to continue. */
export async function planTurn(door: DeepWorkDoor, input: PlanInput): Promise<DeepWorkResult> {
  const workflow = await named(door, 'plan', 'plan');
  if ('command' in workflow) return workflow;
  if (input.runId) {
    const run = await savedRun(door, 'plan', input.runId);
    if ('command' in run) return run;
    const start = await continued(
      door,
      'plan',
      run,
      runControlOf(input.runId, { ...input, feedback: input.feedback ?? input.answer }),
    );
    return 'command' in start ? start : turn(door, 'plan', workflow, start);
  }
  const goal = input.goal?.trim();
  if (goal) return turn(door, 'plan', workflow, { start: { goal } });
  const found = await door.sessions.read(input.sessionId ?? '');
  const log = found.kind === 'found' ? found.log : undefined;
  const answer = log?.state === 'completed' ? log.snapshot.context.finalAnswer?.trim() : undefined;
  if (!log || !answer)
    return said(
      'plan',
      '',
      `Council session ${input.sessionId} has no completed answer to plan in this folder. Give a goal instead.`,
    );
  return turn(door, 'plan', workflow, {
    start: {
      goal: `Implement what the council recommended:\n\n${answer.length > MAX_GOAL_CHARS ? `${answer.slice(0, MAX_GOAL_CHARS)}…` : answer}`,
      constraints: activeAssumptions(log.snapshot).map(a => `Assumption: ${a.assumption}`),
    },
  });
}

/** `council_workflow` / `council workflow`: list the workflows, run one, or continue a run. */
export async function workflowTurn(door: DeepWorkDoor, input: WorkflowInput): Promise<DeepWorkResult> {
  if (input.runId) {
    const run = await savedRun(door, 'workflow', input.runId);
    if ('command' in run) return run;
    const workflow = await named(door, 'workflow', run.workflow);
    if ('command' in workflow) return workflow;
    const start = await continued(door, 'workflow', run, runControlOf(input.runId, input));
    return 'command' in start ? start : turn(door, 'workflow', workflow, start);
  }
  if (!input.workflow) return said('workflow', workflowListText(await door.catalog()));
  const goal = input.goal?.trim();
  if (!goal)
    return said(
      'workflow',
      '',
      `Add a goal after the workflow's name, e.g. council workflow ${input.workflow} "Review the payment module".`,
    );
  const workflow = await named(door, 'workflow', input.workflow);
  if ('command' in workflow) return workflow;
  return turn(door, 'workflow', workflow, { start: { goal, flags: input.flags ?? [] } });
}

/** A run's limits in the command and the MCP server: the extension's default `council.budget.runMaxRequests`. */
export const RUN_LIMITS: SpendingLimits = { maxRequests: 60 };
