import * as vscode from 'vscode';
import type { z } from 'zod';
import type { CouncilCommand } from '../../core/council/commands';
import type { NewSessionOptions } from '../../core/council/councilTurn';
import {
  costEstimate,
  sessionToolResult,
  type CostEstimate,
  type RequestEstimate,
} from '../../core/council/deliberation';
import { SessionLog } from '../../core/council/sessionLog';
import { readToolInput } from '../../core/council/toolSession';
import { advanceSession } from '../../core/council/toolSessionRun';
import type { DebateExpectation } from '../../core/council/debatePlan';
import { creditsFor, PriceBook } from '../../core/llm/spending/prices';
import { debateAheadOf } from '../chat/debateAheadOf';
import { NO_SPEND } from '../../core/llm/spending/ledger';
import type { ToolModelChoice } from '../../core/llm/toolModelRule';
import type { PersonaRegistry } from '../../core/personas/registry';
import { councilRun, logCouncilTurn, startCouncilSession, type CouncilRunEnvironment } from '../chat/councilDeps';
import { storedSession } from '../chat/threadSession';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import { toolModel, type ModelMemento } from '../languageModel/toolModel';
import { loadCouncilPersonas } from '../personas/personaSource';
import { pinnedPersonaIds } from '../personas/pinnedPersonas';
import { readCouncilSettings, type CouncilSettings } from '../settings';
import { questionAsker } from './askQuestions';
import { CallPlans } from './callPlans';
import { withToolProgress } from './toolProgress';

/*
 * What the council tools (council_open, council_deliberate) share: a call planned once from one settings read, run on
 * a session by the chat's own commands with its progress in a notification, and the result the agent reads.
 */

/** What the council tools need from the extension. */
export interface CouncilToolEnvironment extends CouncilRunEnvironment {
  readonly context: vscode.ExtensionContext;
  /** Where the model of the last `@council` request is remembered (the tools' model rule). */
  readonly models: ModelMemento;
}

export const NO_MODEL =
  'No language model is available in VS Code. Sign in to a model provider (e.g. GitHub Copilot) and try again.';

/** What a council tool call runs on: the settings read once for the call, the model the tools' rule picked, the personas. */
interface ToolTurn {
  readonly settings: CouncilSettings;
  readonly choice: ToolModelChoice<vscode.LanguageModelChat>;
  readonly registry: PersonaRegistry;
}

/**
 * What a council tool call is planned from, with one settings read: the settings, the personas and the model (absent
 * when none is available: the confirmation still names the personas, the run answers NO_MODEL).
 */
export async function toolTurn(
  env: CouncilToolEnvironment,
): Promise<Omit<ToolTurn, 'choice'> & { readonly turn: ToolTurn | undefined }> {
  const settings = readCouncilSettings();
  const [choice, registry] = await Promise.all([
    toolModel(env.models, settings),
    loadCouncilPersonas(env.context.extensionUri, settings),
  ]);
  return { settings, registry, turn: choice ? { settings, choice, registry } : undefined };
}

export function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** "GPT-5 mini (the model you last used with `@council`)". */
export function modelText(choice: ToolModelChoice<vscode.LanguageModelChat>): string {
  return `${choice.model.name || choice.model.id} (${choice.reason})`;
}

/** What `estimate` may cost on `chat`, priced with the user's table (debatePlan's token rule). */
export async function priced(
  estimate: RequestEstimate,
  request: string,
  seats: number,
  chat: vscode.LanguageModelChat,
  settings: CouncilSettings,
  /** What the run will probably spend for a request of so many tokens, when known: the estimate then carries it too. */
  expected?: (contextTokens: number) => DebateExpectation,
): Promise<CostEstimate> {
  const model = adaptLanguageModel(chat);
  const price = new PriceBook(settings.spending.prices).priceOf(model);
  const quote = (input: number, output: number) => (price ? creditsFor(price, input, output) : undefined);
  const contextTokens = await model.countTokens(request);
  return costEstimate(estimate, contextTokens, seats, quote, expected?.(contextTokens), settings.protocol);
}

/** The personas an agent named, else the ones the user pinned with "Council: Select Personas". */
export function seated(env: CouncilToolEnvironment, registry: PersonaRegistry, ids: readonly string[] | undefined) {
  const wanted = ids && ids.length > 0 ? ids : pinnedPersonaIds(env.context);
  return wanted.flatMap(id => registry.personas.filter(p => p.id === id));
}

/** What a council tool call runs, decided with its confirmation (callPlans.ts). */
export interface SessionCall {
  /** The settings, the model and the personas; undefined when no model is available (the call answers NO_MODEL). */
  readonly turn: ToolTurn | undefined;
  /** Why the call cannot run (checked before a model is needed). */
  readonly refused?: string;
  /** What the user confirms: what the call runs, on which model, at what cost. */
  readonly confirmation?: { readonly title: string; readonly message: string };
  /** The session it runs on (a stored one, or a new one it starts) and how far it takes it. */
  readonly run?: SessionRun;
}

interface SessionRun {
  readonly session: SessionLog | Omit<NewSessionOptions, 'userId'>;
  readonly commands: readonly CouncilCommand[];
  /** Put the open questions to the user (VS Code's question tool, from a chat) and stop before the debate. */
  readonly asks: boolean;
  /** What the confirmation estimated, shown next to what was used. */
  readonly estimate?: RequestEstimate;
  /** The requests the confirmation expected, beside the estimate's bound. */
  readonly expected?: number;
  readonly unknownIds?: readonly string[];
  /** Tell the agent what the debate still ahead may cost (a session left clarifying by council_open). */
  readonly forecastAhead?: boolean;
}

/** A council tool over one planned call: its input, the line shown while it runs, its plan. */
export interface SessionTool<Input> {
  readonly schema: z.ZodType<Input>;
  readonly working: (input: Input | undefined) => string;
  readonly plan: (input: Input) => Promise<SessionCall>;
  /** A call that runs no council turn (nothing is spent, so nothing to confirm): its line and its result. */
  readonly direct?: (input: Input) => { readonly working: string; readonly run: () => Promise<string> } | undefined;
}

/**
 * `council_open` and `council_deliberate`: the confirmation shows the call's plan and the run takes that same plan
 * (CallPlans): it starts or loads the session, advances it by the plan's commands on the chosen model with progress in
 * a notification, logs the turn (what it spent is what it added to the session's ledger) and returns the session as
 * the agent reads it.
 */
export function sessionTool<Input>(
  env: CouncilToolEnvironment,
  name: string,
  tool: SessionTool<Input>,
): vscode.LanguageModelTool<Input> {
  const calls = new CallPlans<SessionCall>();
  return {
    async prepareInvocation(options) {
      const input = tool.schema.safeParse(options.input);
      if (!input.success) return { invocationMessage: tool.working(undefined) };
      const direct = tool.direct?.(input.data);
      if (direct) return { invocationMessage: direct.working };
      const { confirmation } = await calls.prepare(options.input, () => tool.plan(input.data));
      const invocationMessage = tool.working(input.data);
      if (!confirmation) return { invocationMessage };
      const message = new vscode.MarkdownString(confirmation.message);
      return { invocationMessage, confirmationMessages: { title: confirmation.title, message } };
    },
    async invoke(options, token) {
      const read = readToolInput(name, tool.schema, options.input);
      if ('malformed' in read) return textResult(read.malformed);
      const { input } = read;
      const direct = tool.direct?.(input);
      if (direct) return textResult(await direct.run());
      const { turn, refused, run } = await calls.take(options.input, () => tool.plan(input));
      if (refused !== undefined) return textResult(refused);
      if (!turn || !run) return textResult(NO_MODEL);
      const { settings, choice, registry } = turn;
      const stored = run.session instanceof SessionLog ? run.session : undefined;
      const spentBefore = stored?.spent ?? NO_SPEND;
      // Handed on, not awaited: invoke leaves no frame on the path to the model.
      return withToolProgress(`Council (${choice.model.name || choice.model.id})`, token, async progress => {
        const startedAt = Date.now();
        // The agent reads the result; the user reads the notification: each progress line and each cycle summary.
        const report = (message: string) => progress.report(message);
        const output = { progress: report, markdown: () => undefined, visible: report };
        const { deps } = councilRun(env, choice.model, registry, settings, output, progress.token);
        const log = stored ?? (await startCouncilSession(env, run.session as Omit<NewSessionOptions, 'userId'>, deps));
        const ask = run.asks ? questionAsker(options.toolInvocationToken, progress.token) : undefined;
        const { internal, ...advanced } = await advanceSession(log, run.commands, deps, {
          stopBeforeDebate: run.asks,
          ...(ask ? { ask } : {}),
        });
        if (internal) env.log.logError(internal.error, `session ${log.sessionId} (Council tool): ${internal.detail}`);
        const ahead = run.forecastAhead ? await debateAheadOf(log, choice.model, settings, env.store) : undefined;
        const how = ahead ? { ...advanced, ahead } : advanced;
        logCouncilTurn(env, log, { modelId: choice.model.id, command: name, startedAt, spentBefore }, settings);
        const { estimate, expected, unknownIds } = run;
        return textResult(
          sessionToolResult(log, {
            model: modelText(choice),
            ...how,
            ...(estimate ? { estimate } : {}),
            ...(expected !== undefined ? { expected } : {}),
            ...(unknownIds?.length ? { unknownIds } : {}),
          }),
        );
      });
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
  const why = found.kind === 'damaged' ? found.error : `no session \`${sessionId}\` is stored in this workspace.`;
  return { refused: `Council session \`${sessionId}\` cannot be ${what}: ${why}` };
}
