import * as vscode from 'vscode';
import type { z } from 'zod';
import { runCouncilTurn } from '../../core/council/councilTurn';
import {
  costEstimate,
  deliberationResultText,
  type CostEstimate,
  type RequestEstimate,
} from '../../core/council/deliberation';
import type { CouncilOutput } from '../../core/council/ports';
import type { SessionLog } from '../../core/council/sessionLog';
import { clarifyingReport, TOOL } from '../../core/council/toolSession';
import { LanguageModelFailure } from '../../core/llm/languageModel';
import { creditsFor, PriceBook } from '../../core/llm/spending/prices';
import type { DebateForecastFigures } from '../../core/council/debateForecast';
import { NO_SPEND, type SpendTotals } from '../../core/llm/spending/ledger';
import { describeTurnStop } from '../../core/llm/turnStop';
import type { ToolModelChoice } from '../../core/llm/toolModelRule';
import type { PersonaRegistry } from '../../core/personas/registry';
import { describeIssues } from '../../core/zodIssues';
import { councilRun, logCouncilTurn, type CouncilRunEnvironment } from '../chat/councilDeps';
import { storedSession } from '../chat/threadSession';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import { toolModel, type ModelMemento } from '../languageModel/toolModel';
import { loadCouncilPersonas } from '../personas/personaSource';
import { pinnedPersonaIds } from '../personas/pinnedPersonas';
import { readCouncilSettings, type CouncilSettings } from '../settings';
import { askOpenQuestions, canAskInChat, type AskedQuestions } from './askQuestions';
import { withToolProgress, type ToolProgress } from './toolProgress';

/*
 * What the council tools (council_open, council_deliberate) share around one run on a session: the model and its
 * progress notification, the session advanced by the chat's own commands, and the result the agent reads.
 */

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

export const NO_MODEL =
  'The council could not run: no language model is available in VS Code. Sign in to a model provider (e.g. GitHub Copilot) and try again.';

/** What a council tool call runs on: the settings as read now, the model the tools' rule picked, the personas. */
export interface ToolTurn {
  readonly settings: CouncilSettings;
  readonly choice: ToolModelChoice<vscode.LanguageModelChat>;
  readonly registry: PersonaRegistry;
}

/** The turn a council tool call runs, or undefined when no model is available (the call answers NO_MODEL). */
export async function toolTurn(env: CouncilToolEnvironment): Promise<ToolTurn | undefined> {
  const settings = readCouncilSettings();
  const choice = await toolModel(env.models, settings);
  if (!choice) return undefined;
  return { settings, choice, registry: await loadCouncilPersonas(env.context.extensionUri, settings) };
}

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

/** The agent reads the result; the user reads the progress notification: each progress line and each cycle summary. */
function toolOutput(progress: ToolProgress): CouncilOutput {
  return {
    progress: message => progress.report(message),
    markdown: () => undefined,
    visible: text => progress.report(text),
  };
}

/** What `estimate` may cost on `chat`, priced with the user's table (debatePlan's token rule). */
export async function priced(
  estimate: RequestEstimate,
  request: string,
  seats: number,
  chat: vscode.LanguageModelChat,
  settings: CouncilSettings,
  /** The requests the run will probably make, when known: the estimate then carries the expected figure too. */
  expectedRequests?: number,
): Promise<CostEstimate> {
  const model = adaptLanguageModel(chat);
  const prices = new PriceBook(settings.spending.prices);
  return costEstimate(
    estimate,
    await model.countTokens(request),
    seats,
    (input, output) => {
      const price = prices.priceOf(model);
      return price === undefined ? undefined : creditsFor(price, input, output);
    },
    expectedRequests,
  );
}

/** The personas an agent named, else the ones the user pinned with "Council: Select Personas". */
export function seated(env: CouncilToolEnvironment, registry: PersonaRegistry, ids: readonly string[] | undefined) {
  const wanted = ids && ids.length > 0 ? ids : pinnedPersonaIds(env.context);
  return wanted.flatMap(id => registry.personas.filter(p => p.id === id));
}

/**
 * One tool turn on a session: the council's deps on the chosen model, progress shown, the turn logged (what it
 * spent is what it added to the session's ledger since `spentBefore`).
 */
export async function onSession<T>(
  env: CouncilToolEnvironment,
  { settings, choice, registry }: ToolTurn,
  name: string,
  token: vscode.CancellationToken,
  work: (run: ReturnType<typeof councilRun>, progress: ToolProgress) => Promise<{ log: SessionLog; result: T }>,
  spentBefore: SpendTotals = NO_SPEND,
): Promise<T> {
  return withToolProgress(`Council (${choice.model.name || choice.model.id})`, token, async progress => {
    const startedAt = Date.now();
    const run = councilRun(env, choice.model, registry, settings, toolOutput(progress), progress.token);
    const { log, result } = await work(run, progress);
    logCouncilTurn(env, log, { modelId: choice.model.id, command: name, startedAt, spentBefore }, settings);
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

/**
 * Runs `steps` on `log`; returns why it stopped early, if it did, how the asked questions went, and the answer
 * written from the vote (its own request failed).
 */
export async function advanceSession(
  env: CouncilToolEnvironment,
  log: SessionLog,
  deps: ReturnType<typeof councilRun>['deps'],
  steps: Steps,
  token: vscode.CancellationToken,
): Promise<Advanced> {
  try {
    for (const [i, command] of steps.commands.entries()) {
      const report = await runCouncilTurn(log, command, deps, {
        stopBeforeDebate: !steps.debate || i < steps.commands.length - 1,
      });
      // The answer's own request failed: the council answered from the vote; the agent gets that and Try again.
      if (report.answerPending !== undefined)
        return {
          stopped: `The answer's own request failed: ${report.answerPending.reason} ${TOOL_STOP.kept}`,
          fromVote: report.answerPending.answer,
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
export interface Advanced {
  readonly stopped?: string;
  readonly asked?: AskedQuestions;
  /** The answer the council wrote from the vote (its own request failed). */
  readonly fromVote?: string;
  readonly estimate?: RequestEstimate;
  /** The requests the confirmation expected, beside the estimate's bound. */
  readonly expected?: number;
  readonly unknownIds?: readonly string[];
  /** The debate still ahead, for a session still clarifying (the agent reads what council_deliberate may cost). */
  readonly ahead?: DebateForecastFigures;
}

/** What the agent gets back: the questions still to ask, or the council's answer as Council wrote it. */
export function sessionResult(
  log: SessionLog,
  choice: ToolModelChoice<vscode.LanguageModelChat>,
  how: Advanced,
): string {
  const model = modelText(choice);
  const stillOpen = log.state === 'clarifying' || (log.state === 'debating' && log.snapshot.context.debateCycles === 0);
  if (stillOpen && how.stopped === undefined)
    return clarifyingReport(log.snapshot, {
      model,
      spent: log.spent,
      ...(how.asked ? { asked: how.asked } : {}),
      ...(how.ahead ? { ahead: how.ahead } : {}),
    });
  return deliberationResultText({
    snapshot: log.snapshot,
    spent: log.spent,
    model,
    clarified: log.snapshot.context.questions.length > 0,
    ...(how.estimate ? { estimate: how.estimate } : {}),
    ...(how.expected !== undefined ? { expected: how.expected } : {}),
    ...(how.stopped !== undefined ? { stopped: how.stopped } : {}),
    ...(how.fromVote ? { fromVote: how.fromVote } : {}),
    ...(how.unknownIds?.length ? { unknownIds: how.unknownIds } : {}),
  });
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
