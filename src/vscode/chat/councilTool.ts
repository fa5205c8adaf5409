import * as vscode from 'vscode';
import { newCouncilSession, runCouncilTurn } from '../../core/council/councilTurn';
import {
  confirmationMessage,
  costEstimate,
  deliberationPlan,
  deliberationResultText,
  DeliberationInputSchema,
  invocationMessage,
  type DeliberationInput,
  type CostEstimate,
  type DeliberationPlan,
} from '../../core/council/deliberation';
import { creditsFor, PriceBook } from '../../core/llm/spending/prices';
import { MAX_PANEL } from '../../core/personas/select';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import type { CouncilOutput } from '../../core/council/ports';
import { LanguageModelFailure } from '../../core/llm/languageModel';
import { describeTurnStop } from '../../core/llm/turnStop';
import type { PersonaRegistry } from '../../core/personas/registry';
import { councilRun, lookupRoundsWithoutAttachments, type CouncilRunEnvironment } from './councilDeps';
import { loadCouncilPersonas } from '../personas/personaSource';
import { withPinned } from '../personas/pinnedPersonas';
import { readCouncilSettings, type CouncilSettings } from '../settings';
import { describeIssues } from '../../core/zodIssues';

/** Must match `contributes.languageModelTools[0].name` in package.json. */
export const COUNCIL_TOOL_NAME = 'council_deliberate';

/** What the tool needs from the extension. */
export interface CouncilToolEnvironment extends CouncilRunEnvironment {
  readonly extensionUri: vscode.Uri;
}

/** The agent reads only the result, so the debate's progress and Markdown go nowhere. */
const SILENT: CouncilOutput = { progress: () => undefined, markdown: () => undefined };

/** A tool's session is bound to no chat thread, so it cannot be continued: a new call starts a new session. */
const TOOL_STOP = {
  kept: 'The session is saved; calling the tool again starts a new one.',
  button: 'Try again',
} as const;

/** Why the run stopped, for the agent: the model's failure as the chat would say it, else a sentence with no button to press. */
function stopText(error: unknown, cancelled: boolean, log: CouncilRunEnvironment['log'], sessionId: string): string {
  const stop = describeTurnStop(error, TOOL_STOP, cancelled);
  if (stop.kind === 'cancelled') return 'It was cancelled. The session is saved.';
  log.logError(error, `session ${sessionId} (${COUNCIL_TOOL_NAME}): ${stop.detail}`);
  return error instanceof LanguageModelFailure
    ? stop.message
    : `Council stopped on an internal problem (the details are in the Council output channel). ${TOOL_STOP.kept}`;
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** The personas and the plan for `input` under the current settings. */
async function planFor(
  env: CouncilToolEnvironment,
  input: DeliberationInput,
  settings: CouncilSettings,
): Promise<{ readonly registry: PersonaRegistry; readonly plan: DeliberationPlan }> {
  const registry = await loadCouncilPersonas(env.extensionUri, settings);
  const plan = deliberationPlan(
    input,
    registry.personas,
    settings.limits.debateCycleLimit,
    settings.limits.adminMaxDebateCycles,
    lookupRoundsWithoutAttachments(settings),
    {
      protocol: settings.protocol,
      budget: settings.spending.session.maxRequests,
    },
  );
  return { registry, plan };
}

/** What the plan may cost on `model`, priced with the user's table (see debatePlan's token rule). */
async function toolCost(
  plan: DeliberationPlan,
  chat: vscode.LanguageModelChat,
  settings: CouncilSettings,
): Promise<CostEstimate> {
  const model = adaptLanguageModel(chat);
  const prices = new PriceBook(settings.spending.prices);
  const seats = plan.named.length || MAX_PANEL;
  return costEstimate(plan.estimate, await model.countTokens(plan.request), seats, (input, output) => {
    const price = prices.priceOf(model);
    return price === undefined ? undefined : creditsFor(price, input, output);
  });
}

/** The model for a run: the tool call carries none, so the first one VS Code offers. */
async function toolModel(): Promise<vscode.LanguageModelChat | undefined> {
  const [model] = await vscode.lm.selectChatModels();
  return model;
}

/** Runs the council on `plan`, without clarifying questions, and returns the text for the agent. */
async function deliberate(
  env: CouncilToolEnvironment,
  plan: DeliberationPlan,
  settings: CouncilSettings,
  registry: PersonaRegistry,
  token: vscode.CancellationToken,
): Promise<string> {
  const model = await toolModel();
  if (!model)
    return 'The council could not run: no language model is available in VS Code. Sign in to a model provider (e.g. GitHub Copilot) and try again.';
  const started = Date.now();
  const { deps, usage } = councilRun(env, model, registry, settings, SILENT, token);
  const log = newCouncilSession(
    {
      request: withPinned(plan.request, plan.named),
      userId: vscode.env.machineId || 'user',
      limits: { ...settings.limits, debateCycleLimit: plan.cycles },
      skipClarification: true,
    },
    deps,
  );
  await env.store.save(log.stored);
  let stopped: string | undefined;
  try {
    await runCouncilTurn(log, { kind: 'resume' }, deps);
  } catch (error) {
    stopped = stopText(error, token.isCancellationRequested, env.log, log.sessionId);
  } finally {
    env.log.logTurn({
      sessionId: log.sessionId,
      state: log.state,
      modelId: model.id,
      calls: usage.calls,
      latencyMs: Date.now() - started,
      promptTokens: usage.promptTokens,
      command: COUNCIL_TOOL_NAME,
    });
  }
  return deliberationResultText({
    snapshot: log.snapshot,
    spent: log.spent,
    estimate: plan.estimate,
    stopped,
    unknownIds: plan.unknownIds,
  });
}

/** `council_deliberate`: a council debate an agent can ask for, confirmed by the user since it spends model requests. */
export function councilTool(env: CouncilToolEnvironment): vscode.LanguageModelTool<DeliberationInput> {
  return {
    async prepareInvocation(options) {
      const input = DeliberationInputSchema.safeParse(options.input);
      if (!input.success) return { invocationMessage: 'Consulting the council' };
      const settings = readCouncilSettings();
      const { plan } = await planFor(env, input.data, settings);
      const model = await toolModel();
      const { title, message } = confirmationMessage(
        plan,
        model?.name,
        model && (await toolCost(plan, model, settings)),
      );
      return {
        invocationMessage: invocationMessage(input.data),
        confirmationMessages: { title, message: new vscode.MarkdownString(message) },
      };
    },
    async invoke(options, token) {
      const input = DeliberationInputSchema.safeParse(options.input);
      if (!input.success)
        return textResult(
          `The council needs a question: ${describeIssues(input.error.issues, 'input', { schema: DeliberationInputSchema, data: options.input }).join('; ')}`,
        );
      const settings = readCouncilSettings();
      const { registry, plan } = await planFor(env, input.data, settings);
      return textResult(await deliberate(env, plan, settings, registry, token));
    },
  };
}
