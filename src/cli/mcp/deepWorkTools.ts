import type { CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { readToolInput, TOOL } from '../../core/council/toolSession';
import { nextCallsText } from '../../core/council/toolNextCalls';
import { PlanInputSchema, WorkflowInputSchema } from '../../core/deepWork/deepWorkInput';
import type { CancellationSignal, LanguageModel } from '../../core/llm/languageModel';
import type { PriceBook } from '../../core/llm/spending/prices';
import { SessionFiles } from '../sessionFiles';
import { planTurn, RUN_LIMITS, workflowTurn, type DeepWorkDoor, type DeepWorkResult } from '../deepWork/deepWorkRun';
import { workflowListText } from '../deepWork/deepWorkText';
import { packageRoot, projectWorkflows } from '../deepWork/projectWorkflows';
import { RunFiles } from '../deepWork/runFiles';
import { cliScriptSandbox } from '../deepWork/scriptSandbox';

/*
 * `council_plan` and `council_workflow` over MCP: the VS Code tools' inputs (core/deepWork/deepWorkInput.ts), one turn
 * of the run per call (to its next checkpoint, the end, or a stop), its next steps as the exact next calls. Progress
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
function resultText(modelText: string, result: DeepWorkResult): string {
  const run = result.run
    ? `\n\nRun ${result.run.runId} (${result.run.workflow}): ${result.run.status}; stored in ${result.run.file}, its files in ${result.run.folder}/.`
    : '';
  const apply = (result.proposals ?? []).map(
    p =>
      `- ${p.ticketId} (${p.changes.join(', ')}): the user applies it in a terminal with \`council plan --run ${result.run?.runId} --apply ${p.ticketId}\` (it asks before writing; nothing was applied).`,
  );
  const calls = nextCallsText(result.next);
  return [
    `Model: ${modelText}.`,
    result.report,
    ...(result.error ? [`Error: ${result.error}`] : []),
    ...(apply.length ? [`Proposed changes, not applied:\n${apply.join('\n')}`] : []),
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
    spending: { limits: RUN_LIMITS, prices: call.prices },
    token: call.token,
    progress: call.progress,
    sessions: new SessionFiles(call.project),
  };
  const result =
    name === TOOL.plan
      ? await planTurn(door, PlanInputSchema.parse(input ?? {}))
      : await workflowTurn(door, WorkflowInputSchema.parse(input ?? {}));
  return text(resultText(call.model.text, result), result.error !== undefined);
}
