import * as vscode from 'vscode';
import type { z } from 'zod';
import { forecastWorkflow, workflowForecastSentence } from '../../core/deepWork/workflowForecast';
import { readToolInput, TOOL } from '../../core/council/toolSession';
import { nextCallsText } from '../../core/council/toolNextCalls';
import type { ToolModelChoice } from '../../core/llm/toolModelRule';
import { toolModel } from '../languageModel/toolModel';
import type { PlanHandler } from '../deepWork/planHandler';
import type { WorkflowHandler } from '../deepWork/workflowHandler';
import type { WorkflowCatalog } from '../../core/deepWork/buildWorkflowCatalog';
import {
  runModelPrice,
  workflowNamed,
  workspaceHistory,
  type DeepWorkAnswer,
  type DeepWorkCall,
  type DeepWorkDeps,
} from '../deepWork/deepWorkTurn';
import { readCouncilSettings, type CouncilSettings } from '../settings';
import {
  PlanInputSchema,
  WorkflowInputSchema,
  type PlanInput,
  type WorkflowInput,
} from '../../core/deepWork/deepWorkInput';
import { planRequestOf, workflowRequestOf } from './deepWorkInput';
import { modelText, NO_MODEL, storedCouncilSession, textResult, type CouncilToolEnvironment } from './councilToolRun';
import { withToolProgress } from './toolProgress';
import { CallPlans } from './callPlans';

/*
 * `/plan` and `/workflow` as tools: each call's input is validated into the same typed request the chat parses from
 * its text, and runs the same handler (the same engine, run store and run limits). A run pauses at its checkpoints
 * as in the chat; the result is the answer's report as text, with its next steps as the exact next calls.
 */

/**
 * A deep-work call planned once (CallPlans): the settings read once, the model chosen from them, and for a new run
 * the workflows read and the forecast shown in the confirmation: the run uses these same ones.
 */
interface DeepWorkCallPlan {
  readonly settings: CouncilSettings;
  readonly choice: ToolModelChoice<vscode.LanguageModelChat> | undefined;
  /** The workflows as read for the forecast (a new run); a resumed run's turn reads them once itself. */
  readonly catalog?: Promise<WorkflowCatalog>;
  readonly forecast: string;
}

/** Reads the settings once, chooses the tools' model and, for a new run of `workflowName`, forecasts it. */
async function planDeepWorkCall(
  env: CouncilToolEnvironment,
  deps: Pick<DeepWorkDeps, 'catalog' | 'runs'>,
  workflowName: string | undefined,
): Promise<DeepWorkCallPlan> {
  const settings = readCouncilSettings();
  const choice = await toolModel(env.models, settings);
  const resumed = `It continues a saved run; what the run has spent and its forecast for the stages left open the result. It stays within \`council.budget.runMaxCredits\` (${settings.spending.run.maxCredits ?? 'no limit'}) for the whole run.`;
  if (!workflowName) return { settings, choice, forecast: resumed };
  const catalog = deps.catalog();
  const found = workflowNamed(await catalog, workflowName);
  const price = choice ? runModelPrice({ model: choice.model, settings }) : undefined;
  const forecast =
    'workflow' in found
      ? workflowForecastSentence(
          forecastWorkflow(
            found.workflow,
            undefined,
            undefined,
            undefined,
            workspaceHistory(deps, found.workflow.name),
          ),
          price,
        )
      : resumed;
  return { settings, choice, catalog, forecast };
}

/** What sets `council_plan` and `council_workflow` apart; the rest of a deep-work tool is the same. */
interface DeepWorkTool<Input> {
  readonly name: string;
  readonly schema: z.ZodType<Input>;
  /** Shown while a call runs that has no confirmation (its input is wrong, or it only lists). */
  readonly working: string;
  /** The workflow a new run of `input` starts (forecast in the confirmation); undefined when it continues a run. */
  readonly newRun: (input: Input) => string | undefined;
  /** The confirmation's title and what the call does; undefined when it needs none. */
  readonly confirm: (input: Input) => { readonly title: string; readonly what: string } | undefined;
  /** Why the call cannot run (checked before a model is needed), or how it runs on the handler. */
  readonly run: (input: Input) => { readonly refused: string } | ((call: DeepWorkCall) => Promise<DeepWorkAnswer>);
}

/**
 * A deep-work tool: the confirmation shows what the call runs, on which model, and a new run's forecast; the run
 * takes that same plan, calls the handler straight from the progress notification's work (so a tool adds only its
 * own `invoke` and the notification's frames to the chat's path to the model), keeps the turn's notes for the
 * result and shows its progress in the notification. The result: the model, the notes and report, the failure, and
 * each next step as its exact call.
 */
function deepWorkTool<Input>(
  env: CouncilToolEnvironment,
  deps: DeepWorkDeps,
  tool: DeepWorkTool<Input>,
): vscode.LanguageModelTool<Input> {
  const calls = new CallPlans<DeepWorkCallPlan>();
  const plan = (input: Input) => () => planDeepWorkCall(env, deps, tool.newRun(input));
  return {
    async prepareInvocation(options) {
      const input = tool.schema.safeParse(options.input);
      const shown = input.success ? tool.confirm(input.data) : undefined;
      if (!input.success || !shown) return { invocationMessage: tool.working };
      const { choice, forecast } = await calls.prepare(options.input, plan(input.data));
      return {
        invocationMessage: shown.what,
        confirmationMessages: {
          title: shown.title,
          message: new vscode.MarkdownString(
            `${shown.what}.\n\n- Model: ${choice ? modelText(choice) : 'none is available'}.\n- ${forecast}\n- It pauses at each checkpoint for your choice.`,
          ),
        },
      };
    },
    async invoke(options, token) {
      const read = readToolInput(tool.name, tool.schema, options.input);
      if ('malformed' in read) return textResult(read.malformed);
      const run = tool.run(read.input);
      if ('refused' in run) return textResult(run.refused);
      const planned = await calls.take(options.input, plan(read.input));
      const { choice, settings, catalog } = planned;
      if (!choice) return textResult(NO_MODEL);
      return withToolProgress(`Council (${choice.model.name || choice.model.id})`, token, async progress => {
        const notes: string[] = [];
        const answer = await run({
          model: choice.model,
          toolInvocationToken: options.toolInvocationToken,
          token: progress.token,
          settings,
          ...(catalog ? { catalog } : {}),
          say: markdown => notes.push(markdown),
          progress: message => progress.report(message),
        });
        const report = answer.report.map(part => (typeof part === 'string' ? part : part.value)).join('');
        const error = answer.error ? `\n\nError: ${answer.error}\n` : '';
        const next = nextCallsText(answer.next);
        return textResult(
          `Model: ${modelText(choice)}.\n\n${notes.join('')}${report}${error}${next ? `\n\n${next}\n` : ''}`,
        );
      });
    },
  };
}

/** `council_plan`: `/plan` to its next checkpoint, then resumed with the user's choice. */
export function planTool(
  env: CouncilToolEnvironment,
  deps: DeepWorkDeps,
  plan: PlanHandler,
): vscode.LanguageModelTool<PlanInput> {
  return deepWorkTool(env, deps, {
    name: TOOL.plan,
    schema: PlanInputSchema,
    working: 'Planning with Council',
    newRun: input => (input.runId !== undefined ? undefined : 'plan'),
    confirm: input =>
      input.runId !== undefined
        ? {
            title: 'Continue the Council plan run?',
            what: `Council continues plan run ${input.runId} (${input.option !== undefined ? `option ${input.option}` : (input.action ?? 'resume')})`,
          }
        : {
            title: 'Run Council /plan?',
            what: `Council plans ${input.goal?.trim() ? `"${input.goal.trim().slice(0, 200)}"` : `the answer of council session ${input.sessionId}`}: discovery, planning and tickets on this workspace`,
          },
    run: input => {
      const session = input.sessionId ? storedCouncilSession(env, input.sessionId, 'planned') : undefined;
      if (session && 'refused' in session) return session;
      return call => plan(planRequestOf(input), session?.log, call);
    },
  });
}

/** `council_workflow`: lists the workflows, runs one to its next checkpoint, or continues a run with the user's choice. */
export function workflowTool(
  env: CouncilToolEnvironment,
  deps: DeepWorkDeps,
  workflow: WorkflowHandler,
): vscode.LanguageModelTool<WorkflowInput> {
  return deepWorkTool(env, deps, {
    name: TOOL.workflow,
    schema: WorkflowInputSchema,
    working: 'Listing Council workflows',
    newRun: input => (input.runId ? undefined : input.workflow),
    confirm: input =>
      input.runId
        ? { title: 'Continue the Council workflow run?', what: `Council continues workflow run ${input.runId}` }
        : input.workflow
          ? {
              title: `Run the Council workflow ${input.workflow}?`,
              what: `Council runs the workflow \`${input.workflow}\` on "${(input.goal ?? '').trim().slice(0, 200)}"`,
            }
          : undefined,
    run: input => call => workflow(workflowRequestOf(input), call),
  });
}
