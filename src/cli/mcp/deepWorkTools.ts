import type {
  CallToolResult,
  ElicitRequestFormParams,
  ElicitResult,
  ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { readToolInput, TOOL } from '../../core/council/toolSession';
import { nextCallsText } from '../../core/council/toolNextCalls';
import {
  PlanInputSchema,
  WorkflowInputSchema,
  type PlanInput,
  type WorkflowInput,
} from '../../core/deepWork/deepWorkInput';
import type { CancellationSignal, LanguageModel } from '../../core/llm/languageModel';
import type { PriceBook } from '../../core/llm/spending/prices';
import type { CheckpointChoice } from '../../core/nextSteps';
import { SessionFiles } from '../sessionFiles';
import { commandLimitAdvice } from '../commandLimitAdvice';
import { planTurn, RUN_LIMITS, workflowTurn, type DeepWorkDoor, type DeepWorkResult } from '../deepWork/deepWorkRun';
import { workflowListText } from '../deepWork/deepWorkText';
import { packageRoot, projectWorkflows } from '../deepWork/projectWorkflows';
import { RunFiles } from '../deepWork/runFiles';
import { cliScriptSandbox } from '../deepWork/scriptSandbox';
import { checkpointForm, checkpointReply, type CheckpointReply } from './checkpointElicitation';

/*
 * `council_plan` and `council_workflow` over MCP: the VS Code tools' inputs (core/deepWork/deepWorkInput.ts), one turn
 * of the run per call (to its next checkpoint, the end, or a stop), its next steps as the exact next calls. Where the
 * client shows forms (elicitation), each checkpoint is put to the user and the run goes on in the same call. Progress
 * goes out as notifications; the client's cancellation stops the spending (the run keeps its last phase). A ticket's
 * proposed changes are never applied here: the result names the terminal command that asks first.
 */

/** What a call needs from the server. */
export interface DeepWorkToolCall {
  readonly project: string;
  /** The model and how the result names it; undefined when none is configured or lent. */
  readonly model: { readonly model: LanguageModel; readonly text: string } | undefined;
  readonly noModelHelp: string;
  readonly prices: PriceBook;
  readonly token: CancellationSignal;
  /** Sends one progress notification (nothing when the client asked for none). */
  readonly progress: (message: string) => void;
  /** Puts a form to the user (MCP elicitation); absent when the client cannot show forms. */
  readonly elicit?: (form: ElicitRequestFormParams) => Promise<ElicitResult>;
}

/** What the user did at the checkpoints of one call: the choices taken, and how the asking ended if it did. */
interface Asked {
  readonly chosen: readonly string[];
  readonly ended?: string;
}

function text(body: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: body }], ...(isError ? { isError: true } : {}) };
}

/** A progress sender for the call's progress token (none: the client asked for no progress). */
export function progressNotifier(
  send: (notification: ServerNotification) => Promise<void>,
  progressToken: string | number | undefined,
): (message: string) => void {
  let step = 0;
  return message => {
    if (progressToken === undefined) return;
    step += 1;
    void send({ method: 'notifications/progress', params: { progressToken, progress: step, message } });
  };
}

/** A result as an agent reads it: the model, the report, the failure, and each next step as its exact call. */
function resultText(modelText: string, result: DeepWorkResult, asked: Asked): string {
  const run = result.run
    ? `\n\nRun ${result.run.runId} (${result.run.workflow}): ${result.run.status}; stored in ${result.run.file}, its files in ${result.run.folder}/.`
    : '';
  const apply = (result.proposals ?? []).map(p =>
    p.refused
      ? `- ${p.ticketId} (${p.changes.join(', ')}): ${p.refused}`
      : `- ${p.ticketId} (${p.changes.join(', ')}): the user applies it in a terminal with \`council plan --run ${result.run?.runId} --apply ${p.ticketId}\` (it asks before writing; nothing was applied).`,
  );
  const calls = nextCallsText(result.next);
  return [
    `Model: ${modelText}.`,
    ...(asked.chosen.length ? [`Asked the user at each checkpoint:\n${asked.chosen.join('\n')}`] : []),
    result.report,
    ...(result.error ? [`Error: ${result.error}`] : []),
    ...(apply.length ? [`Proposed changes, not applied:\n${apply.join('\n')}`] : []),
    ...(asked.ended ? [asked.ended] : []),
    ...(calls ? [calls] : []),
  ]
    .filter(Boolean)
    .join('\n\n')
    .concat(run);
}

/** Runs one `council_plan` or `council_workflow` call; a malformed input spends nothing. */
export async function callDeepWorkTool(name: string, input: unknown, call: DeepWorkToolCall): Promise<CallToolResult> {
  const schema = name === TOOL.plan ? PlanInputSchema : WorkflowInputSchema;
  const parsed = readToolInput(name, schema, input);
  if ('malformed' in parsed) return text(parsed.malformed, true);
  const root = packageRoot();
  const catalog = () => projectWorkflows(call.project, root);
  const listing =
    name === TOOL.workflow && !('workflow' in parsed.input && parsed.input.workflow) && !parsed.input.runId;
  if (listing) return text(workflowListText(await catalog()));
  if (!call.model) return text(`${name} has no model to run on. ${call.noModelHelp}`, true);
  const door: DeepWorkDoor = {
    project: call.project,
    model: call.model.model,
    runs: new RunFiles(call.project),
    catalog,
    sandbox: cliScriptSandbox(root),
    spending: { limits: RUN_LIMITS, prices: call.prices, advice: commandLimitAdvice(undefined) },
    token: call.token,
    progress: call.progress,
    sessions: new SessionFiles(call.project),
  };
  const turnOf = (next: PlanInput | WorkflowInput) =>
    name === TOOL.plan ? planTurn(door, next as PlanInput) : workflowTurn(door, next as WorkflowInput);
  let result = await turnOf(parsed.input);
  const chosen: string[] = [];
  let ended: string | undefined;
  for (;;) {
    const choices = result.next.flatMap(step => (step.kind === 'choose' ? [step.choice] : []));
    const runId = result.run?.runId;
    if (!call.elicit || result.run?.status !== 'paused' || !runId || !choices.length) break;
    if (call.token.isCancellationRequested) break;
    const reply = await askAtCheckpoint(call.elicit, result.report, choices);
    if (reply.kind !== 'pick') {
      ended = ENDED[reply.kind];
      break;
    }
    const where = result.checkpoint ? `after ${result.checkpoint.phase}` : 'at the checkpoint';
    chosen.push(`- ${where}: ${reply.choice.label}${reply.feedback ? ` ("${reply.feedback}")` : ''}`);
    result = await turnOf({
      runId,
      option: reply.choice.option,
      ...(reply.feedback ? { feedback: reply.feedback } : {}),
    });
  }
  return text(resultText(call.model.text, result, { chosen, ...(ended ? { ended } : {}) }), result.error !== undefined);
}

/** What the result says when the user did not pick a choice; the run is saved, paused at its checkpoint, in each case. */
const ENDED: Readonly<Record<Exclude<CheckpointReply['kind'], 'pick'> | 'unasked', string>> = {
  declined:
    'The user declined to choose at this checkpoint: the run stays paused here and nothing more was spent. Ask the user which choice to take, then make that call.',
  cancelled:
    'The user cancelled at this checkpoint: the run stopped spending and is saved, paused here. Do not go on unless the user asks; these calls go on from here.',
  unasked:
    'The checkpoint could not be put to the user (the client did not answer the form): the run stays paused here. Ask the user which choice to take, then make that call.',
};

/** The checkpoint put to the user; a form the client fails to answer (an error, a timeout) leaves the run paused. */
async function askAtCheckpoint(
  elicit: (form: ElicitRequestFormParams) => Promise<ElicitResult>,
  report: string,
  choices: readonly CheckpointChoice[],
): Promise<CheckpointReply | { readonly kind: 'unasked' }> {
  try {
    return checkpointReply(await elicit(checkpointForm(report, choices)), choices);
  } catch {
    return { kind: 'unasked' };
  }
}
