import * as vscode from 'vscode';
import type { z } from 'zod';
import { newCouncilSession, runCouncilTurn } from '../../core/council/councilTurn';
import {
  confirmationMessage,
  costEstimate,
  deliberationPlan,
  deliberationResultText,
  DeliberationInputSchema,
  invocationMessage,
  requestEstimate,
  type CostEstimate,
  type DeliberationInput,
  type NewDebateInput,
  type RequestEstimate,
} from '../../core/council/deliberation';
import type { CouncilOutput } from '../../core/council/ports';
import type { SessionLog } from '../../core/council/sessionLog';
import {
  clarifyingReport,
  continuationCommands,
  councilLine,
  OpenInputSchema,
  TOOL,
  type OpenInput,
} from '../../core/council/toolSession';
import { LanguageModelFailure } from '../../core/llm/languageModel';
import { creditsFor, PriceBook } from '../../core/llm/spending/prices';
import { describeTurnStop } from '../../core/llm/turnStop';
import type { ToolModelChoice } from '../../core/llm/toolModelRule';
import { MAX_PANEL } from '../../core/personas/select';
import type { PersonaRegistry } from '../../core/personas/registry';
import { effectiveCycleLimit } from '../../core/session/selectors';
import { describeIssues } from '../../core/zodIssues';
import { councilRun, lookupRoundsWithoutAttachments, type CouncilRunEnvironment } from '../chat/councilDeps';
import { storedSession } from '../chat/threadSession';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import { toolModel, type ModelMemento } from '../languageModel/toolModel';
import { loadCouncilPersonas } from '../personas/personaSource';
import { pinnedPersonaIds, withPinned } from '../personas/pinnedPersonas';
import { readCouncilSettings, type CouncilSettings } from '../settings';
import { askOpenQuestions, canAskInChat, type AskedQuestions } from './askQuestions';
import { withToolProgress, type ToolProgress } from './toolProgress';

/** What the council tools need from the extension. */
export interface CouncilToolEnvironment extends CouncilRunEnvironment {
  readonly context: vscode.ExtensionContext;
  /** Where the model of the last `@council` request is remembered (the tools' model rule). */
  readonly models: ModelMemento;
}

/** A tool's session is continued by id, with the tool or in the chat. */
const TOOL_STOP = {
  kept: `The session is saved; \`${TOOL.deliberate}\` with its sessionId and "action": "retry" continues it.`,
  button: 'Try again',
} as const;

const NO_MODEL =
  'The council could not run: no language model is available in VS Code. Sign in to a model provider (e.g. GitHub Copilot) and try again.';

/** What is wrong with a tool's input, in the words Council uses for every file and record it checks. */
export function inputProblems(schema: z.ZodType, data: unknown, issues: readonly z.core.$ZodIssue[]): string {
  return describeIssues(issues, 'input', { schema, data }).join(' ');
}

export function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** "GPT-5 mini (the model you last used with `@council`)". */
export function modelText(choice: ToolModelChoice<vscode.LanguageModelChat>): string {
  return `${choice.model.name || choice.model.id} (${choice.reason})`;
}

/** Why a run stopped, for the agent: the model's failure as the chat would say it, else a sentence. */
function stopText(error: unknown, cancelled: boolean, log: CouncilRunEnvironment['log'], sessionId: string): string {
  const stop = describeTurnStop(error, TOOL_STOP, cancelled);
  if (stop.kind === 'cancelled') return `It was cancelled. ${TOOL_STOP.kept}`;
  log.logError(error, `session ${sessionId} (Council tool): ${stop.detail}`);
  return error instanceof LanguageModelFailure
    ? stop.message
    : `Council stopped on an internal problem (the details are in the Council output channel). ${TOOL_STOP.kept}`;
}

/**
 * The agent reads the result; the user reads the progress notification: each progress line and each cycle summary.
 * What a person must read (`visible`) is kept in `shown`: an answer written from the vote exists only there.
 */
function toolOutput(progress: ToolProgress, shown: string[]): CouncilOutput {
  return {
    progress: message => progress.report(message),
    markdown: () => undefined,
    visible: text => {
      shown.push(text);
      progress.report(text);
    },
  };
}

/** How the chat's answer from the vote begins (answerFromVote in wording/markdown.ts). */
const VOTE_ANSWER_MARK = '_Written from the vote;';

/** The answer the council wrote from the vote when the answer's own request failed, as the chat showed it. */
function answerFromVote(shown: readonly string[]): string | undefined {
  const start = shown.findIndex(text => text.includes(VOTE_ANSWER_MARK));
  return start < 0 ? undefined : shown.slice(start).join('').trim();
}

/** What `estimate` may cost on `chat`, priced with the user's table (debatePlan's token rule). */
async function priced(
  estimate: RequestEstimate,
  request: string,
  seats: number,
  chat: vscode.LanguageModelChat,
  settings: CouncilSettings,
): Promise<CostEstimate> {
  const model = adaptLanguageModel(chat);
  const prices = new PriceBook(settings.spending.prices);
  return costEstimate(estimate, await model.countTokens(request), seats, (input, output) => {
    const price = prices.priceOf(model);
    return price === undefined ? undefined : creditsFor(price, input, output);
  });
}

/** The personas an agent named, else the ones the user pinned with "Council: Select Personas". */
function seated(env: CouncilToolEnvironment, registry: PersonaRegistry, ids: readonly string[] | undefined) {
  const wanted = ids && ids.length > 0 ? ids : pinnedPersonaIds(env.context);
  return wanted.flatMap(id => registry.personas.filter(p => p.id === id));
}

/** One tool turn on a session: the council's deps on the chosen model, progress shown, the turn logged. */
async function onSession<T>(
  env: CouncilToolEnvironment,
  name: string,
  choice: ToolModelChoice<vscode.LanguageModelChat>,
  registry: PersonaRegistry,
  settings: CouncilSettings,
  token: vscode.CancellationToken,
  work: (
    run: ReturnType<typeof councilRun> & { readonly shown: readonly string[] },
    progress: ToolProgress,
  ) => Promise<{ log: SessionLog; result: T }>,
): Promise<T> {
  return withToolProgress(`Council (${choice.model.name || choice.model.id})`, token, async progress => {
    const started = Date.now();
    const shown: string[] = [];
    const run = councilRun(env, choice.model, registry, settings, toolOutput(progress, shown), progress.token);
    const { log, result } = await work({ ...run, shown }, progress);
    env.log.logTurn({
      sessionId: log.sessionId,
      state: log.state,
      modelId: choice.model.id,
      calls: run.usage.calls,
      latencyMs: Date.now() - started,
      promptTokens: run.usage.promptTokens,
      command: name,
      sessionRequests: log.requestsUsed,
      budget: settings.spending.session.maxRequests,
    });
    return result;
  });
}

/** How far a tool call takes a session. */
interface Steps {
  readonly commands: readonly Parameters<typeof runCouncilTurn>[1][];
  /** Run the debate and the answer after the commands (else stop where the debate would start). */
  readonly debate: boolean;
  /** Put the open questions to the user through VS Code's question tool, when the call came from a chat. */
  readonly ask?: vscode.ChatParticipantToolToken;
}

/** Runs `steps` on `log`; returns why it stopped early, if it did, and how the asked questions went. */
async function advanceSession(
  env: CouncilToolEnvironment,
  log: SessionLog,
  deps: ReturnType<typeof councilRun>['deps'],
  steps: Steps,
  token: vscode.CancellationToken,
): Promise<{ readonly stopped?: string; readonly asked?: AskedQuestions; readonly fromVote?: boolean }> {
  try {
    for (const [i, command] of steps.commands.entries()) {
      const report = await runCouncilTurn(log, command, deps, {
        stopBeforeDebate: !steps.debate || i < steps.commands.length - 1,
      });
      // The answer's own request failed: the council answered from the vote; the agent gets that and Try again.
      if (report.answerPending !== undefined)
        return {
          stopped: `The answer's own request failed: ${report.answerPending} ${TOOL_STOP.kept}`,
          fromVote: true,
        };
    }
    const asked =
      steps.ask && log.state === 'clarifying' && canAskInChat(steps.ask)
        ? await askOpenQuestions(log, deps, steps.ask, token)
        : undefined;
    return asked ? { asked } : {};
  } catch (error) {
    return { stopped: stopText(error, token.isCancellationRequested, env.log, log.sessionId) };
  }
}

/** How a tool call left a session, for its result. */
interface Advanced {
  readonly stopped?: string;
  readonly asked?: AskedQuestions;
  /** The answer the council wrote from the vote (its own request failed). */
  readonly fromVote?: string;
  readonly estimate?: RequestEstimate;
  readonly unknownIds?: readonly string[];
}

/** What the agent gets back: the questions still to ask, or the council's answer as Council wrote it. */
function sessionResult(log: SessionLog, choice: ToolModelChoice<vscode.LanguageModelChat>, how: Advanced): string {
  const model = modelText(choice);
  const stillOpen = log.state === 'clarifying' || (log.state === 'debating' && log.snapshot.context.debateCycles === 0);
  if (stillOpen && how.stopped === undefined)
    return clarifyingReport(log.snapshot, { model, spent: log.spent, ...(how.asked ? { asked: how.asked } : {}) });
  return deliberationResultText({
    snapshot: log.snapshot,
    spent: log.spent,
    model,
    clarified: log.snapshot.context.questions.length > 0,
    ...(how.estimate ? { estimate: how.estimate } : {}),
    ...(how.stopped !== undefined ? { stopped: how.stopped } : {}),
    ...(how.fromVote ? { fromVote: how.fromVote } : {}),
    ...(how.unknownIds?.length ? { unknownIds: how.unknownIds } : {}),
  });
}

/** `advanceSession`'s outcome with the answer written from the vote, if there is one. */
function advanced(outcome: Awaited<ReturnType<typeof advanceSession>>, shown: readonly string[]): Advanced {
  const fromVote = outcome.fromVote ? answerFromVote(shown) : undefined;
  return {
    ...(outcome.stopped !== undefined ? { stopped: outcome.stopped } : {}),
    ...(outcome.asked ? { asked: outcome.asked } : {}),
    ...(fromVote ? { fromVote } : {}),
  };
}

/**
 * `council_open`: opens a session as `@council` does (the council chosen, its clarifying questions with recommended
 * answers) and, when called from a chat where VS Code's question tool exists, puts the questions to the user one at a
 * time. Stops before the debate: `council_deliberate` continues the session by id, with its own confirmation.
 */
export function openTool(env: CouncilToolEnvironment): vscode.LanguageModelTool<OpenInput> {
  return {
    async prepareInvocation(options) {
      const input = OpenInputSchema.safeParse(options.input);
      if (!input.success) return { invocationMessage: 'Opening a council session' };
      const settings = readCouncilSettings();
      const choice = await toolModel(env.models, settings);
      const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
      const named = seated(env, registry, input.data.personas);
      const opening = settings.protocol === 'thorough' && named.length === 0 ? 2 : 1;
      const estimate = { fewest: opening, most: opening };
      const cost =
        choice && (await priced(estimate, input.data.question, named.length || MAX_PANEL, choice.model, settings));
      const credits = cost?.credits
        ? `about ${cost.credits.most.toFixed(1)} AI credits`
        : "the model's price is unknown";
      return {
        invocationMessage: `Opening a council session: ${input.data.question.replace(/\s+/g, ' ').slice(0, 80)}`,
        confirmationMessages: {
          title: 'Open a Council session?',
          message: new vscode.MarkdownString(
            `Council will choose the personas for "${input.data.question.replace(/\s+/g, ' ').slice(0, 200)}" and prepare its clarifying questions, each with a recommended answer.\n\n` +
              `- Model: ${choice ? modelText(choice) : 'none is available, so the council cannot run'}.\n` +
              `- ${opening} model request${opening === 1 ? '' : 's'} (a malformed reply costs up to 2 more): about ${cost ? `${Math.round(cost.tokens.most / 100) / 10}k tokens, ${credits}` : 'an unknown cost'}, within \`council.budget.maxCredits\`.\n` +
              '- The debate is confirmed separately, with its own estimate.',
          ),
        },
      };
    },
    async invoke(options, token) {
      const input = OpenInputSchema.safeParse(options.input);
      if (!input.success)
        return textResult(
          `${TOOL.open} needs a question: ${inputProblems(OpenInputSchema, options.input, input.error.issues)} Pass {"question": "…"} and, optionally, "context" and "personas".`,
        );
      const settings = readCouncilSettings();
      const choice = await toolModel(env.models, settings);
      if (!choice) return textResult(NO_MODEL);
      const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
      const named = seated(env, registry, input.data.personas);
      const context = input.data.context?.trim();
      const request = context ? `${input.data.question.trim()}\n\nContext:\n${context}` : input.data.question.trim();
      const text = await onSession(
        env,
        TOOL.open,
        choice,
        registry,
        settings,
        token,
        async ({ deps, shown }, progress) => {
          const log = newCouncilSession(
            { request: withPinned(request, named), userId: vscode.env.machineId || 'user', limits: settings.limits },
            deps,
          );
          await env.store.save(log.stored);
          const ask = options.toolInvocationToken;
          const outcome = await advanceSession(
            env,
            log,
            deps,
            { commands: [{ kind: 'resume' }], debate: false, ...(ask ? { ask } : {}) },
            progress.token,
          );
          return { log, result: sessionResult(log, choice, advanced(outcome, shown)) };
        },
      );
      return textResult(text);
    },
  };
}

/** A stored session by id, or why it cannot be `what` ("continued", "planned"). */
export function storedCouncilSession(
  env: Pick<CouncilToolEnvironment, 'store'>,
  sessionId: string,
  what: string,
): { readonly log: SessionLog } | { readonly refused: string } {
  const found = storedSession(env.store, sessionId);
  if (found.kind === 'found') return { log: found.log };
  if (found.kind === 'newer') return { refused: found.error.message };
  const why = found.kind === 'unreadable' ? found.error : 'it was not found.';
  return { refused: `Council session \`${sessionId}\` cannot be ${what}: ${why}` };
}

/** What continuing `sessionId` will do and may cost, before it runs. */
async function continuationPreview(
  env: CouncilToolEnvironment,
  input: DeliberationInput & { sessionId: string },
  settings: CouncilSettings,
): Promise<{ log: SessionLog; estimate: RequestEstimate } | { refused: string }> {
  const found = storedCouncilSession(env, input.sessionId, 'continued');
  if ('refused' in found) return found;
  const log = found.log;
  const planned = continuationCommands(log.snapshot, input);
  if ('refused' in planned) return planned;
  const asks = input.action === 'revisit' || input.action === 'more';
  const seats = log.snapshot.context.participants.filter(p => p.type === 'persona').length;
  const limit =
    input.action === 'extend' ? log.snapshot.context.limits.adminMaxDebateCycles : effectiveCycleLimit(log.snapshot);
  const cycles = Math.max(1, limit - log.snapshot.context.debateCycles);
  const left =
    settings.spending.session.maxRequests === undefined
      ? undefined
      : Math.max(0, settings.spending.session.maxRequests - log.requestsUsed);
  const estimate: RequestEstimate = asks
    ? { fewest: input.action === 'more' ? 1 : 0, most: input.action === 'more' ? 1 : 0 }
    : planned.commands.length === 0
      ? { fewest: 0, most: 0 }
      : requestEstimate(
          { named: seats, available: seats },
          cycles,
          lookupRoundsWithoutAttachments(settings),
          settings.protocol,
          left,
        );
  return { log, estimate };
}

/**
 * `council_deliberate`: runs the debate and the answer. With a `question` it starts a session that skips
 * clarification (as `/debate`); with a `sessionId` it continues a stored session as `@council` would: the user's
 * answers (questions left out become logged assumptions), extend, revisit, more questions, or retry.
 */
export function deliberateTool(env: CouncilToolEnvironment): vscode.LanguageModelTool<DeliberationInput> {
  return {
    async prepareInvocation(options) {
      const input = DeliberationInputSchema.safeParse(options.input);
      if (!input.success) return { invocationMessage: 'Consulting the council' };
      const settings = readCouncilSettings();
      const choice = await toolModel(env.models, settings);
      const model = choice && modelText(choice);
      const { sessionId, question } = input.data;
      if (sessionId !== undefined) {
        const preview = await continuationPreview(env, { ...input.data, sessionId }, settings);
        if ('refused' in preview) return { invocationMessage: invocationMessage(input.data) };
        const { log, estimate } = preview;
        const seats = Math.max(1, councilSeatsCount(log));
        const cost =
          choice && (await priced(estimate, log.snapshot.context.requestText, seats, choice.model, settings));
        const { title, message } = confirmationMessage(
          {
            request: log.snapshot.context.requestText,
            named: [],
            unknownIds: [],
            cycles: Math.max(1, effectiveCycleLimit(log.snapshot) - log.snapshot.context.debateCycles),
            estimate,
          },
          model,
          cost,
          {
            sessionId,
            council: councilLine(log.snapshot)
              .replace(/^Council: /, '')
              .replace(/\.$/, ''),
          },
        );
        return {
          invocationMessage: invocationMessage(input.data),
          confirmationMessages: { title, message: new vscode.MarkdownString(message) },
        };
      }
      const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
      const plan = newDebatePlan({ ...input.data, question: question ?? '' }, registry, settings);
      const cost =
        choice && (await priced(plan.estimate, plan.request, plan.named.length || MAX_PANEL, choice.model, settings));
      const { title, message } = confirmationMessage(plan, model, cost);
      return {
        invocationMessage: invocationMessage(input.data),
        confirmationMessages: { title, message: new vscode.MarkdownString(message) },
      };
    },
    async invoke(options, token) {
      const input = DeliberationInputSchema.safeParse(options.input);
      if (!input.success)
        return textResult(
          `The council needs a question or a session to continue: ${inputProblems(DeliberationInputSchema, options.input, input.error.issues)}`,
        );
      const settings = readCouncilSettings();
      const choice = await toolModel(env.models, settings);
      if (!choice) return textResult(NO_MODEL);
      const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
      const { sessionId } = input.data;
      if (sessionId !== undefined) {
        const preview = await continuationPreview(env, { ...input.data, sessionId }, settings);
        if ('refused' in preview) return textResult(preview.refused);
        const planned = continuationCommands(preview.log.snapshot, input.data);
        if ('refused' in planned) return textResult(planned.refused);
        const text = await onSession(
          env,
          TOOL.deliberate,
          choice,
          registry,
          settings,
          token,
          async ({ deps, shown }, progress) => {
            const log = preview.log;
            // Revisit and more questions reopen clarification: the user answers before anything is debated.
            const asks = input.data.action === 'revisit' || input.data.action === 'more';
            const ask = asks ? options.toolInvocationToken : undefined;
            const outcome = await advanceSession(
              env,
              log,
              deps,
              { commands: planned.commands, debate: !asks, ...(ask ? { ask } : {}) },
              progress.token,
            );
            return {
              log,
              result: sessionResult(log, choice, { ...advanced(outcome, shown), estimate: preview.estimate }),
            };
          },
        );
        return textResult(text);
      }
      const plan = newDebatePlan({ ...input.data, question: input.data.question ?? '' }, registry, settings);
      const text = await onSession(
        env,
        TOOL.deliberate,
        choice,
        registry,
        settings,
        token,
        async ({ deps, shown }, progress) => {
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
          const outcome = await advanceSession(
            env,
            log,
            deps,
            { commands: [{ kind: 'resume' }], debate: true },
            progress.token,
          );
          const how = { ...advanced(outcome, shown), estimate: plan.estimate, unknownIds: plan.unknownIds };
          return { log, result: sessionResult(log, choice, how) };
        },
      );
      return textResult(text);
    },
  };
}

function councilSeatsCount(log: SessionLog): number {
  return log.snapshot.context.participants.filter(p => p.type === 'persona').length;
}

/** The plan for a new session by question under the current settings. */
function newDebatePlan(input: NewDebateInput, registry: PersonaRegistry, settings: CouncilSettings) {
  return deliberationPlan(
    input,
    registry.personas,
    settings.limits.debateCycleLimit,
    settings.limits.adminMaxDebateCycles,
    lookupRoundsWithoutAttachments(settings),
    { protocol: settings.protocol, budget: settings.spending.session.maxRequests },
  );
}
