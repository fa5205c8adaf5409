import * as vscode from 'vscode';
import { forecastWorkflow, workflowForecastSentence } from '../../core/deepWork/workflowForecast';
import { TOOL } from '../../core/council/toolSession';
import { toolModel } from '../languageModel/toolModel';
import type { PlanHandler } from '../deepWork/planHandler';
import { readCouncilSettings } from '../settings';
import {
  runModelPrice,
  workflowNamed,
  type DeepWorkAnswer,
  type DeepWorkCall,
  type DeepWorkDeps,
} from '../deepWork/deepWorkTurn';
import type { WorkflowHandler } from '../deepWork/workflowHandler';
import { planRequestOf, workflowRequestOf } from './deepWorkInput';
import {
  PlanInputSchema,
  WorkflowInputSchema,
  type PlanInput,
  type WorkflowInput,
} from '../../core/deepWork/deepWorkInput';
import { nextCallsText } from '../../core/council/toolNextCalls';
import {
  inputProblems,
  modelText,
  storedCouncilSession,
  textResult,
  type CouncilToolEnvironment,
} from './councilToolRun';
import { withToolProgress, type ToolProgress } from './toolProgress';
import { CallPlans } from './callPlans';
import type { ToolModelChoice } from '../../core/llm/toolModelRule';

/*
 * `/plan` and `/workflow` as tools: each call's input is validated into the same typed request the chat parses from
 * its text, and runs the same handler (the same engine, run store and run limits). A run pauses at its checkpoints
 * as in the chat; the result is the answer's report as text, with its next steps as the exact next calls.
 */

/** An answer as an agent reads it: the notes and the report, the failure, and each next step as its exact call. */
function answerText(notes: readonly string[], answer: DeepWorkAnswer): string {
  const report = answer.report.map(part => (typeof part === 'string' ? part : part.value)).join('');
  const error = answer.error ? `\n\nError: ${answer.error}\n` : '';
  const calls = nextCallsText(answer.next);
  const next = calls ? `\n\n${calls}\n` : '';
  return `${notes.join('')}${report}${error}${next}`;
}

const NO_MODEL =
  'No language model is available in VS Code. Sign in to a model provider (e.g. GitHub Copilot) and try again.';

/**
 * A tool call's side of the deep-work turn: the tools' model, the notes kept for the result, progress in the
 * tool's notification. The handler is called straight from the notification's work, so a tool adds only its own
 * `invoke` and the notification's two frames to the chat's path to the model.
 */
function toolCall(
  choice: ToolModelChoice<vscode.LanguageModelChat>,
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined,
  progress: ToolProgress,
  notes: string[],
): DeepWorkCall {
  return {
    model: choice.model,
    toolInvocationToken,
    token: progress.token,
    say: markdown => notes.push(markdown),
    progress: message => progress.report(message),
  };
}

/** The tool result of an answer: the model it ran on, then the answer as an agent reads it. */
function answerResult(
  choice: ToolModelChoice<vscode.LanguageModelChat>,
  notes: readonly string[],
  answer: DeepWorkAnswer,
): vscode.LanguageModelToolResult {
  return textResult(`Model: ${modelText(choice)}.\n\n${answerText(notes, answer)}`);
}

/** The notification's title while a tool runs on `choice`. */
function progressTitle(choice: ToolModelChoice<vscode.LanguageModelChat>): string {
  return `Council (${choice.model.name || choice.model.id})`;
}

/**
 * A deep-work call planned once (CallPlans): the model chosen from one settings read and the forecast shown in the
 * confirmation are the ones its run uses.
 */
interface DeepWorkCallPlan {
  readonly choice: ToolModelChoice<vscode.LanguageModelChat> | undefined;
  readonly forecast: string;
}

/** Reads the settings once, chooses the tools' model and, for a new run of `workflowName`, forecasts it. */
async function planDeepWorkCall(
  env: CouncilToolEnvironment,
  deps: Pick<DeepWorkDeps, 'catalog' | 'runs' | 'log' | 'sandbox'>,
  workflowName: string | undefined,
): Promise<DeepWorkCallPlan> {
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
  return { choice, forecast };
}

/** The confirmation of a deep-work call: what it runs, on which model, and the forecast of a new run. */
function deepWorkConfirmation(
  { choice, forecast }: DeepWorkCallPlan,
  title: string,
  what: string,
): vscode.PreparedToolInvocation {
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
  const calls = new CallPlans<DeepWorkCallPlan>();
  const make = (input: PlanInput) => () => planDeepWorkCall(env, deps, input.runId !== undefined ? undefined : 'plan');
  return {
    async prepareInvocation(options) {
      const input = PlanInputSchema.safeParse(options.input);
      if (!input.success) return { invocationMessage: 'Planning with Council' };
      const resume = input.data.runId !== undefined;
      return deepWorkConfirmation(
        await calls.prepare(options.input, make(input.data)),
        resume ? 'Continue the Council plan run?' : 'Run Council /plan?',
        resume
          ? `Council continues plan run ${input.data.runId} (${input.data.option !== undefined ? `option ${input.data.option}` : (input.data.action ?? 'resume')})`
          : `Council plans ${input.data.goal?.trim() ? `"${input.data.goal.trim().slice(0, 200)}"` : `the answer of council session ${input.data.sessionId}`}: discovery, planning and tickets on this workspace`,
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
      const { choice } = await calls.take(options.input, make(input.data));
      if (!choice) return textResult(NO_MODEL);
      const request = planRequestOf(input.data);
      return withToolProgress(progressTitle(choice), token, async progress => {
        const notes: string[] = [];
        const call = toolCall(choice, options.toolInvocationToken, progress, notes);
        return answerResult(choice, notes, await plan(request, session?.log, call));
      });
    },
  };
}

/** `council_workflow`: lists the workflows, runs one to its next checkpoint, or continues a run with the user's choice. */
export function workflowTool(
  env: CouncilToolEnvironment,
  deps: DeepWorkDeps,
  workflow: WorkflowHandler,
): vscode.LanguageModelTool<WorkflowInput> {
  const calls = new CallPlans<DeepWorkCallPlan>();
  const make = (input: WorkflowInput) => () => planDeepWorkCall(env, deps, input.runId ? undefined : input.workflow);
  return {
    async prepareInvocation(options) {
      const input = WorkflowInputSchema.safeParse(options.input);
      if (!input.success || (!input.data.workflow && !input.data.runId))
        return { invocationMessage: 'Listing Council workflows' };
      return deepWorkConfirmation(
        await calls.prepare(options.input, make(input.data)),
        input.data.runId ? 'Continue the Council workflow run?' : `Run the Council workflow ${input.data.workflow}?`,
        input.data.runId
          ? `Council continues workflow run ${input.data.runId}`
          : `Council runs the workflow \`${input.data.workflow}\` on "${(input.data.goal ?? '').trim().slice(0, 200)}"`,
      );
    },
    async invoke(options, token) {
      const input = WorkflowInputSchema.safeParse(options.input);
      if (!input.success)
        return textResult(
          `${TOOL.workflow} cannot run: ${inputProblems(WorkflowInputSchema, options.input, input.error.issues)}`,
        );
      const { choice } = await calls.take(options.input, make(input.data));
      if (!choice) return textResult(NO_MODEL);
      const request = workflowRequestOf(input.data);
      return withToolProgress(progressTitle(choice), token, async progress => {
        const notes: string[] = [];
        const call = toolCall(choice, options.toolInvocationToken, progress, notes);
        return answerResult(choice, notes, await workflow(request, call));
      });
    },
  };
}
