import * as vscode from 'vscode';
import type { CouncilCommand } from '../../core/council/commands';
import {
  confirmationMessage,
  deliberationPlan,
  DeliberationInputSchema,
  invocationMessage,
  requestEstimate,
  type DeliberationInput,
  type NewDebateInput,
  type RequestEstimate,
} from '../../core/council/deliberation';
import type { SessionLog } from '../../core/council/sessionLog';
import { continuationCommands, councilLine, TOOL } from '../../core/council/toolSession';
import { MAX_PANEL } from '../../core/personas/select';
import type { PersonaRegistry } from '../../core/personas/registry';
import { effectiveCycleLimit } from '../../core/session/selectors';
import { lookupRoundsWithoutAttachments, startCouncilSession } from '../chat/councilDeps';
import { toolModel } from '../languageModel/toolModel';
import { loadCouncilPersonas } from '../personas/personaSource';
import { withPinned } from '../personas/pinnedPersonas';
import { readCouncilSettings, type CouncilSettings } from '../settings';
import {
  type CouncilToolEnvironment,
  NO_MODEL,
  inputProblems,
  textResult,
  modelText,
  priced,
  onSession,
  toolTurn,
  advanceSession,
  sessionResult,
  storedCouncilSession,
} from './councilToolRun';

/** A stored session, the commands that continue it, and what they may cost: decided once, shown, then run. */
interface ContinuationPreview {
  readonly log: SessionLog;
  readonly commands: readonly CouncilCommand[];
  readonly seats: number;
  /** The debate cycles left (up to the admin maximum when extending). */
  readonly cycles: number;
  readonly estimate: RequestEstimate;
}

/** What continuing `sessionId` will do and may cost, before it runs. */
async function continuationPreview(
  env: CouncilToolEnvironment,
  input: DeliberationInput & { sessionId: string },
  settings: CouncilSettings,
): Promise<ContinuationPreview | { refused: string }> {
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
  return { log, commands: planned.commands, seats, cycles, estimate };
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
        const { log, estimate, cycles } = preview;
        const cost =
          choice &&
          (await priced(
            estimate,
            log.snapshot.context.requestText,
            Math.max(1, preview.seats),
            choice.model,
            settings,
          ));
        const { title, message } = confirmationMessage(
          {
            request: log.snapshot.context.requestText,
            named: [],
            unknownIds: [],
            cycles,
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
      const turn = await toolTurn(env);
      if (!turn) return textResult(NO_MODEL);
      const { settings, choice, registry } = turn;
      const { sessionId } = input.data;
      if (sessionId !== undefined) {
        const preview = await continuationPreview(env, { ...input.data, sessionId }, settings);
        if ('refused' in preview) return textResult(preview.refused);
        const text = await onSession(
          env,
          turn,
          TOOL.deliberate,
          token,
          async ({ deps }, progress) => {
            const log = preview.log;
            // Revisit and more questions reopen clarification: the user answers before anything is debated.
            const asks = input.data.action === 'revisit' || input.data.action === 'more';
            const ask = asks ? options.toolInvocationToken : undefined;
            const outcome = await advanceSession(
              env,
              log,
              deps,
              { commands: preview.commands, debate: !asks, ...(ask ? { ask } : {}) },
              progress.token,
            );
            return {
              log,
              result: sessionResult(log, choice, { ...outcome, estimate: preview.estimate }),
            };
          },
          preview.log.spent,
        );
        return textResult(text);
      }
      const plan = newDebatePlan({ ...input.data, question: input.data.question ?? '' }, registry, settings);
      const text = await onSession(env, turn, TOOL.deliberate, token, async ({ deps }, progress) => {
        const log = await startCouncilSession(
          env,
          {
            request: withPinned(plan.request, plan.named),
            limits: { ...settings.limits, debateCycleLimit: plan.cycles },
            skipClarification: true,
          },
          deps,
        );
        const outcome = await advanceSession(
          env,
          log,
          deps,
          { commands: [{ kind: 'resume' }], debate: true },
          progress.token,
        );
        const how = { ...outcome, estimate: plan.estimate, unknownIds: plan.unknownIds };
        return { log, result: sessionResult(log, choice, how) };
      });
      return textResult(text);
    },
  };
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
