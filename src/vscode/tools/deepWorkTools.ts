import * as vscode from 'vscode';
import { z } from 'zod';
import { RUN_ID } from '../../core/workflow/engine/runId';
import { forecastWorkflow, workflowForecastSentence } from '../../core/deepWork/workflowForecast';
import { TOOL } from '../../core/council/toolSession';
import { toolModel } from '../languageModel/toolModel';
import type { PlanHandler } from '../plan/planHandler';
import { planControlPrompt } from '../plan/planRequest';
import { readCouncilSettings } from '../settings';
import { runModelPrice, workflowNamed, type DeepWorkDeps } from '../workflow/deepWorkTurn';
import type { WorkflowHandler } from '../workflow/workflowHandler';
import { deepWorkFollowups } from '../workflow/deepWorkResult';
import { decidePrompt } from '../workflow/workflowRequest';
import { capturedStream } from './capturedStream';
import {
  inputProblems,
  modelText,
  storedCouncilSession,
  textResult,
  type CouncilToolEnvironment,
} from './councilToolRun';
import { withToolProgress } from './toolProgress';

/*
 * `/plan` and `/workflow` as tools: each call builds the text the chat command would carry and runs the same handler
 * (the same engine, run store and run limits), with a stream that collects what the chat would show. A run pauses at
 * its checkpoints as in the chat; the result names each choice as the next call, as the chat's buttons would.
 */

const RunId = z.string().trim().regex(RUN_ID, 'runId is the id a result named, e.g. wf-0f1e…');

/** `council_plan`'s input: a goal (or a session's answer) to plan, or a run to continue with the user's choice. */
const PlanInputSchema = z
  .object({
    goal: z.string().optional(),
    sessionId: z.string().trim().min(1).optional(),
    runId: RunId.optional(),
    action: z.enum(['continue', 'redo', 'skip', 'abort', 'resume']).optional(),
    answer: z.string().optional(),
  })
  .refine(i => Boolean(i.goal?.trim()) || i.sessionId !== undefined || i.runId !== undefined, {
    message: 'give a `goal` to plan, a council `sessionId` whose answer to plan, or a `runId` to continue',
  });
export type PlanInput = z.infer<typeof PlanInputSchema>;

/** `council_workflow`'s input: list (nothing), run (`workflow` + `goal`), or continue a run (`runId` + `option` or `action`). */
const WorkflowInputSchema = z
  .object({
    workflow: z.string().trim().min(1).optional(),
    goal: z.string().optional(),
    flags: z.array(z.string()).optional(),
    runId: RunId.optional(),
    option: z.number().int().min(1).optional(),
    action: z.enum(['resume', 'abort']).optional(),
    feedback: z.string().optional(),
  })
  .refine(i => !(i.workflow !== undefined && i.runId !== undefined), {
    message: 'give `workflow` (with a `goal`) to start a run, or `runId` to continue one, not both',
  });
export type WorkflowInput = z.infer<typeof WorkflowInputSchema>;

/** What follows `/plan` in the chat for `input`. */
function planText(input: PlanInput): string {
  if (input.runId) return `${planControlPrompt(input.action ?? 'resume', input.runId)} ${input.answer ?? ''}`.trim();
  return input.goal?.trim() ?? '';
}

/** What follows `/workflow` in the chat for `input`. */
function workflowText(input: WorkflowInput): string {
  if (input.runId)
    return input.option !== undefined
      ? decidePrompt(input.runId, input.option, input.feedback?.trim())
      : `${input.action ?? 'resume'} ${input.runId} ${input.feedback ?? ''}`.trim();
  if (!input.workflow) return '';
  const flags = input.flags?.length ? `--flags ${input.flags.join(',')} ` : '';
  return `${input.workflow} ${flags}${input.goal ?? ''}`.trim();
}

/** The chat's buttons under a response, as the next tool calls. */
function nextCalls(
  tool: string,
  followups: readonly vscode.ChatFollowup[],
  toInput: (prompt: string) => object | undefined,
): string {
  const calls = followups.flatMap(f => {
    const input = toInput(f.prompt);
    return input ? [`- ${f.label}: \`${tool}\` with ${JSON.stringify(input)}`] : [];
  });
  return calls.length > 0
    ? `\n\nNext steps (the chat's buttons; ask the user which, then make that one call):\n${calls.join('\n')}\n`
    : '';
}

/** `/plan`'s button prompts ("continue wf-…") back into this tool's input. */
function planInputOf(prompt: string): object | undefined {
  const [action, runId, ...rest] = prompt.trim().split(/\s+/);
  return runId ? { runId, action, ...(rest.length ? { answer: rest.join(' ') } : {}) } : undefined;
}

/** `/workflow`'s button prompts ("decide wf-… 2", "resume wf-…") back into this tool's input. */
function workflowInputOf(prompt: string): object | undefined {
  const [verb, runId, option] = prompt.trim().split(/\s+/);
  if (!runId) return undefined;
  return verb === 'decide' ? { runId, option: Number(option) } : { runId, action: verb };
}

/** A chat request for the handlers: the tool's model and invocation token, no references. */
function toolRequest(
  prompt: string,
  command: string,
  model: vscode.LanguageModelChat,
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined,
): vscode.ChatRequest {
  return {
    prompt,
    command,
    references: [],
    toolReferences: [],
    // Undefined outside a chat: tools the run invokes then ask for confirmation on their own.
    toolInvocationToken: toolInvocationToken as vscode.ChatParticipantToolToken,
    model,
  };
}

/** Runs a deep-work handler for a tool call and returns what the chat would have shown, with its next steps. */
async function runForTool(
  env: CouncilToolEnvironment,
  toolName: string,
  text: string,
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined,
  token: vscode.CancellationToken,
  handle: (
    request: vscode.ChatRequest,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ) => Promise<vscode.ChatResult>,
  next: (result: vscode.ChatResult) => string,
): Promise<vscode.LanguageModelToolResult> {
  const settings = readCouncilSettings();
  const choice = await toolModel(env.models, settings);
  if (!choice)
    return textResult(
      'No language model is available in VS Code. Sign in to a model provider (e.g. GitHub Copilot) and try again.',
    );
  return withToolProgress(`Council (${choice.model.name || choice.model.id})`, token, async progress => {
    const captured = capturedStream(message => progress.report(message));
    const result = await handle(
      toolRequest(text, toolName, choice.model, toolInvocationToken),
      captured.stream,
      progress.token,
    );
    const error = result.errorDetails ? `\n\nError: ${result.errorDetails.message}\n` : '';
    return textResult(`Model: ${modelText(choice)}.\n\n${captured.text()}${error}${next(result)}`);
  });
}

/** The confirmation of a deep-work call: what it runs, on which model, and the forecast of a new run. */
async function deepWorkConfirmation(
  env: CouncilToolEnvironment,
  deps: Pick<DeepWorkDeps, 'catalog' | 'runs' | 'log' | 'sandbox'>,
  title: string,
  what: string,
  workflowName: string | undefined,
): Promise<vscode.PreparedToolInvocation> {
  const settings = readCouncilSettings();
  const choice = await toolModel(env.models, settings);
  let forecast = `It continues a saved run; what the run has spent and its forecast for the stages left open the result. It stays within \`council.budget.runMaxCredits\` (${settings.spending.run.maxCredits ?? 'no limit'}) for the whole run.`;
  if (workflowName) {
    const found = await workflowNamed(deps as DeepWorkDeps, workflowName);
    if ('workflow' in found)
      forecast = workflowForecastSentence(
        forecastWorkflow(found.workflow),
        choice ? runModelPrice(choice.model) : undefined,
      );
  }
  return {
    invocationMessage: what,
    confirmationMessages: {
      title,
      message: new vscode.MarkdownString(
        `${what}.\n\n- Model: ${choice ? modelText(choice) : 'none is available'}.\n- ${forecast}\n- It pauses at each checkpoint for your choice.`,
      ),
    },
  };
}

/** `council_plan`: `/plan` to its next checkpoint, then resumed with the user's choice. */
export function planTool(
  env: CouncilToolEnvironment,
  deps: DeepWorkDeps,
  plan: PlanHandler,
): vscode.LanguageModelTool<PlanInput> {
  return {
    async prepareInvocation(options) {
      const input = PlanInputSchema.safeParse(options.input);
      if (!input.success) return { invocationMessage: 'Planning with Council' };
      const resume = input.data.runId !== undefined;
      return deepWorkConfirmation(
        env,
        deps,
        resume ? 'Continue the Council plan run?' : 'Run Council /plan?',
        resume
          ? `Council continues plan run ${input.data.runId} (${input.data.action ?? 'resume'})`
          : `Council plans ${input.data.goal?.trim() ? `"${input.data.goal.trim().slice(0, 200)}"` : `the answer of council session ${input.data.sessionId}`}: discovery, planning and tickets on this workspace`,
        resume ? undefined : 'plan',
      );
    },
    async invoke(options, token) {
      const input = PlanInputSchema.safeParse(options.input);
      if (!input.success)
        return textResult(
          `${TOOL.plan} cannot run: ${inputProblems(PlanInputSchema, options.input, input.error.issues)}`,
        );
      const session = input.data.sessionId ? storedCouncilSession(env, input.data.sessionId, 'planned') : undefined;
      if (session && 'refused' in session) return textResult(session.refused);
      return runForTool(
        env,
        TOOL.plan,
        planText(input.data),
        options.toolInvocationToken,
        token,
        (request, stream, cancel) => plan(request.prompt, session?.log, request, stream, cancel),
        result => nextCalls(TOOL.plan, deepWorkFollowups(result) ?? [], planInputOf),
      );
    },
  };
}

/** `council_workflow`: lists the workflows, runs one to its next checkpoint, or continues a run with the user's choice. */
export function workflowTool(
  env: CouncilToolEnvironment,
  deps: DeepWorkDeps,
  workflow: WorkflowHandler,
): vscode.LanguageModelTool<WorkflowInput> {
  return {
    async prepareInvocation(options) {
      const input = WorkflowInputSchema.safeParse(options.input);
      if (!input.success || (!input.data.workflow && !input.data.runId))
        return { invocationMessage: 'Listing Council workflows' };
      return deepWorkConfirmation(
        env,
        deps,
        input.data.runId ? 'Continue the Council workflow run?' : `Run the Council workflow ${input.data.workflow}?`,
        input.data.runId
          ? `Council continues workflow run ${input.data.runId}`
          : `Council runs the workflow \`${input.data.workflow}\` on "${(input.data.goal ?? '').trim().slice(0, 200)}"`,
        input.data.workflow,
      );
    },
    async invoke(options, token) {
      const input = WorkflowInputSchema.safeParse(options.input);
      if (!input.success)
        return textResult(
          `${TOOL.workflow} cannot run: ${inputProblems(WorkflowInputSchema, options.input, input.error.issues)}`,
        );
      return runForTool(
        env,
        TOOL.workflow,
        workflowText(input.data),
        options.toolInvocationToken,
        token,
        (request, stream, cancel) => workflow(request.prompt, request, stream, cancel),
        result => nextCalls(TOOL.workflow, deepWorkFollowups(result) ?? [], workflowInputOf),
      );
    },
  };
}
