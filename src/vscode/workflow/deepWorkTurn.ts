import * as vscode from 'vscode';
import { v4 as uuid } from 'uuid';
import { systemClock } from '../../core/clock';
import type { AttachedItem } from '../../core/session/attachedItem';
import type { SpendTotals } from '../../core/llm/spending/ledger';
import { PriceBook, type ModelPrice } from '../../core/llm/spending/prices';
import { spendBrief } from '../../core/llm/spending/spendText';
import { describeTurnStop } from '../../core/llm/turnStop';
import { runFolder } from '../../core/plan/run/report';
import { newWorkflowRunId } from '../../core/plan/schemas/contextId';
import type { WorkflowDefinition } from '../../core/workflow/definition/workflowDefinition';
import { runSpent, type WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import { runDeepWork, type DeepWorkRequest } from '../../core/deepWork/runDeepWork';
import { forecastWorkflow, workflowForecastSentence } from '../../core/deepWork/workflowForecast';
import type { WorkflowOutcome } from '../../core/workflow/engine/runWorkflow';
import type { ScriptSandbox } from '../../core/workflow/sandbox/scriptSandbox';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import { tracedModel } from '../languageModel/tracedModel';
import type { CouncilLog } from '../log';
import { planContributors } from '../plan/planContributors';
import { progressMessage } from '../plan/planProgress';
import { readCouncilSettings } from '../settings';
import { VsCodeWorkspaceReader } from '../workspace/vscodeWorkspaceReader';
import type { RunRead, RunStore } from './runStore';
import type { StoredWorkflowRun } from '../../core/deepWork/storedWorkflowRun';
import type { WorkflowCatalog } from './buildWorkflowCatalog';
import { skillTools } from './skillTools';
import { subagentModels } from './subagentModels';
import { WorkspaceRunOutputs } from './workflowOutputs';
import { overrideNotice } from './buildWorkflowCatalog';
import { runMetadata, type DeepWorkDoor, type DeepWorkResultMetadata } from './deepWorkResult';
import { renderStopped } from './workflowResponse';
import { workflowProgressMessage } from './workflowProgress';
import { readBoard } from '../../core/plan/pipelineBoard';
import { savedProgress } from '../plan/planSummary';

/** What `/plan` and `/workflow` need from the extension. */
export interface DeepWorkDeps {
  readonly runs: RunStore;
  readonly log: CouncilLog;
  /** The built-in and (in a trusted workspace) the workspace's workflows, read fresh for each request. */
  readonly catalog: () => Promise<WorkflowCatalog>;
  readonly sandbox: ScriptSandbox;
}

/** Where a turn starts: a new run, or a stored run (with the decision for its checkpoint, if one was made). */
export type DeepWorkStart = Pick<DeepWorkRequest, 'start' | 'resume'>;

/** A run paused at a checkpoint. */
export type PausedOutcome = Extract<WorkflowOutcome, { readonly status: 'paused' }>;

/** One turn of a run, as both handlers start it, with how the handler shows a paused and a completed run. */
export interface DeepWorkTurn {
  /** Which command answers (its metadata marker, its words for a stopped run). */
  readonly door: DeepWorkDoor;
  /** The workflow to run, by name (looked up in the catalogue read for this request). */
  readonly workflowName: string;
  readonly start: DeepWorkStart;
  readonly request: vscode.ChatRequest;
  readonly stream: vscode.ChatResponseStream;
  readonly token: vscode.CancellationToken;
  readonly attached?: readonly AttachedItem[];
  readonly paused: (outcome: PausedOutcome, workflow: WorkflowDefinition) => DeepWorkResultMetadata;
  readonly completed: (
    state: WorkflowRunState,
    workflow: WorkflowDefinition,
  ) => Promise<DeepWorkResultMetadata> | DeepWorkResultMetadata;
}

/** A chat result that only says `text`. */
export function say(
  stream: vscode.ChatResponseStream,
  text: string,
  metadata: DeepWorkResultMetadata,
): vscode.ChatResult {
  stream.markdown(text);
  return { metadata };
}

/** A chat result whose `message` goes in the error box. */
function refusal(message: string, metadata: DeepWorkResultMetadata): vscode.ChatResult {
  return { errorDetails: { message }, metadata };
}

/**
 * The saved run to go on with, or the chat result that says why there is none: not saved here (`missing`, in the
 * handler's words), saved by a newer Council, or damaged (the details go to the log).
 */
export function resumableRun(
  deps: DeepWorkDeps,
  door: DeepWorkDoor,
  read: RunRead,
  stream: vscode.ChatResponseStream,
  missing: string,
): StoredWorkflowRun | vscode.ChatResult {
  if (read.kind === 'found') {
    for (const warning of read.warnings ?? []) stream.markdown(`> **Warning:** ${warning}\n\n`);
    return read.run;
  }
  if (read.kind === 'missing') return say(stream, missing, door);
  if (read.kind === 'newer') return refusal(read.error.message, door);
  const plan = 'plan' in door;
  deps.log.logError(read.error, `reading ${plan ? 'plan' : 'workflow'} run ${read.runId}`);
  const details = 'the details are in the Council output channel';
  return refusal(
    plan
      ? `The saved plan run \`${read.runId}\` is damaged and cannot be resumed (${details}). Start a new run with \`/plan <goal>\`.`
      : `The saved run \`${read.runId}\` is damaged and cannot be resumed (${details}). Start a new run.`,
    door,
  );
}

/** Why a run cannot start here (an untrusted workspace, no folder open), in the handler's words; undefined when it can. */
export function workspaceRefusal(words: { readonly untrusted: string; readonly noFolder: string }): string | undefined {
  if (!vscode.workspace.isTrusted) return words.untrusted;
  if (!vscode.workspace.workspaceFolders?.length) return words.noFolder;
  return undefined;
}

/** What a stopped run kept, when it was saved (`/plan` names its last stage instead). */
const PHASES_KEPT = 'The run is saved as of its last completed phase.';

/** What the chat's model costs per token, by the user's prices and the defaults (undefined: unknown). */
export function runModelPrice(model: vscode.LanguageModelChat): ModelPrice | undefined {
  return new PriceBook(readCouncilSettings().spending.prices).priceOf(model);
}

/**
 * Runs one turn of a workflow with the chat's model and answers it: the run's files under `.council/runs/<run-id>/`,
 * its state saved in workspace storage after every phase and at the turn's end, its checkpoints pausing the turn (the
 * buttons resume it). A paused or completed run is shown by the handler; a stop (Stop, a question, an abort, a
 * failure in the error box) is shown here, the same for both commands.
 */
export async function runDeepWorkTurn(deps: DeepWorkDeps, turn: DeepWorkTurn): Promise<vscode.ChatResult> {
  const { start, stream, token } = turn;
  const found = await workflowNamed(deps, turn.workflowName);
  if ('missing' in found) return refusal(found.missing, turn.door);
  const { workflow } = found;
  const resumed = start.resume?.state;
  const ids = { next: () => uuid() };
  const runId = resumed?.runId ?? newWorkflowRunId(ids);
  const reader = new VsCodeWorkspaceReader();
  const { spending } = readCouncilSettings();
  // What the phases still to run will cost, before anything is spent, at the chat model's price (and, resumed, what
  // the run has spent).
  const before = resumed ? `So far: ${spendBrief(runSpent(resumed))}. ` : '';
  const toRun = forecastWorkflow(workflow, resumed, spending.script.maxModelCalls);
  stream.markdown(`_${before}${workflowForecastSentence(toRun, runModelPrice(turn.request.model))}_\n\n`);
  // Each phase (stage) is checked against the run's credit limit by the engine before it starts, the first included.
  // Said where it runs, before anything is spent: the workspace's file runs its own agents and scripts.
  const replaced = overrideNotice(workflow);
  if (replaced) stream.markdown(`_${replaced}_\n\n`);
  // Every progress line carries what the run has spent so far (all its turns).
  let spent: SpendTotals | undefined;
  const progress = (message: string) => stream.progress(spent ? `${message} (${spendBrief(spent)})` : message);
  stream.progress(`${resumed ? 'Resuming' : 'Starting'} ${workflow.name} run ${runId}…`);
  // Every request the run sends is traced into the log, as a council turn's are (councilDeps.ts).
  const traced = (chat: vscode.LanguageModelChat) => tracedModel(adaptLanguageModel(chat), deps.log);
  let outcome: WorkflowOutcome;
  try {
    outcome = await runDeepWork({
      workflow,
      model: traced(turn.request.model),
      modelFor: subagentModels(turn.request.model, message => stream.markdown(`_${message}_\n\n`), traced),
      reader,
      runId,
      outputs: new WorkspaceRunOutputs(runFolder(runId)),
      clock: systemClock,
      ids,
      token,
      spending: {
        limits: spending.run,
        prices: new PriceBook(spending.prices),
        script: spending.script,
        onSpend: totals => (spent = totals),
      },
      sandbox: deps.sandbox,
      tools: skillTools(turn.request),
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
      contributors: planContributors(reader, deps.runs, turn.attached ?? []),
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
    const metadata = saved ? runMetadata(turn.door, saved.state, stop.kind) : turn.door;
    if (stop.kind === 'cancelled') {
      stream.markdown(stop.message);
      return { metadata };
    }
    deps.log.logError(error, `run ${runId}: ${stop.detail}`);
    return { metadata, errorDetails: { message: stop.message } };
  }
  // Stored with its failure, its abort sentence or its question, if any.
  const message = 'question' in outcome ? outcome.question : 'message' in outcome ? outcome.message : undefined;
  await deps.runs.save(outcome.state, outcome.status, message);
  if (outcome.status === 'paused') return { metadata: turn.paused(outcome, workflow) };
  if (outcome.status === 'completed') return { metadata: await turn.completed(outcome.state, workflow) };
  const metadata = renderStopped(stream, turn.door, outcome);
  if (outcome.status !== 'failed') return { metadata };
  const kept = 'plan' in turn.door ? savedProgress(readBoard(outcome.state.blackboard)) : PHASES_KEPT;
  const failure = describeTurnStop(outcome.error, { kept, button: 'Try again' });
  if (failure.kind !== 'failed') return { metadata };
  deps.log.logError(outcome.error, `run ${runId}: ${failure.detail}`);
  return { metadata, errorDetails: { message: failure.message } };
}

/** The workflow named `name`, or the chat result that says why there is none (with the file problems, if any). */
export async function workflowNamed(
  deps: DeepWorkDeps,
  name: string,
): Promise<{ readonly workflow: WorkflowDefinition } | { readonly missing: string }> {
  const catalog = await deps.catalog();
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
