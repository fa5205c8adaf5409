import * as vscode from 'vscode';
import type { CouncilCommand } from '../../core/council/commands';
import {
  confirmationMessage,
  deliberationPlan,
  DeliberationInputSchema,
  expectedRequests,
  invocationMessage,
  requestEstimate,
  type DeliberationInput,
  type NewDebateInput,
  type CostEstimate,
  type RequestEstimate,
} from '../../core/council/deliberation';
import type { SessionLog } from '../../core/council/sessionLog';
import { continuationCommands, councilLine, TOOL } from '../../core/council/toolSession';
import { MAX_PANEL } from '../../core/personas/select';
import type { PersonaRegistry } from '../../core/personas/registry';
import { effectiveCycleLimit } from '../../core/session/selectors';
import { lookupRoundsWithoutAttachments, startCouncilSession } from '../chat/councilDeps';
import { loadCouncilPersonas } from '../personas/personaSource';
import { withPinned } from '../personas/pinnedPersonas';
import { readCouncilSettings, type CouncilSettings } from '../settings';
import {
  type CouncilToolEnvironment,
  type ToolTurn,
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
import { CallPlans } from './callPlans';
import { recordSessionDecision } from '../decisions/recordSession';

/** A stored session, the commands that continue it, and what they may cost: decided once, shown, then run. */
interface ContinuationPreview {
  readonly log: SessionLog;
  readonly commands: readonly CouncilCommand[];
  readonly seats: number;
  /** The debate cycles left (up to the admin maximum when extending). */
  readonly cycles: number;
  readonly estimate: RequestEstimate;
  /** The requests it will probably make (the same prior as a new debate's); undefined when it makes none. */
  readonly expected?: number;
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
  const debates = !asks && planned.commands.length > 0;
  const panel = { named: seats, available: seats };
  const lookups = lookupRoundsWithoutAttachments(settings);
  const estimate: RequestEstimate = asks
    ? { fewest: input.action === 'more' ? 1 : 0, most: input.action === 'more' ? 1 : 0 }
    : debates
      ? requestEstimate(panel, cycles, lookups, settings.protocol, left)
      : { fewest: 0, most: 0 };
  const expected = debates ? expectedRequests(panel, cycles, lookups, settings.protocol, left) : estimate.most;
  return { log, commands: planned.commands, seats, cycles, estimate, ...(expected > 0 ? { expected } : {}) };
}

/** One `council_deliberate` call, planned once for its confirmation and its run (callPlans.ts). */
interface DeliberationCall {
  /** The settings, the model and the personas; undefined when no model is available. */
  readonly turn: ToolTurn | undefined;
  /** Continuing a stored session: what it will do, or why it cannot. */
  readonly continuation?: ContinuationPreview | { readonly refused: string };
  /** A new session by question. */
  readonly debate?: ReturnType<typeof newDebatePlan>;
  /** What the call may cost on the chosen model (undefined without a model or a price). */
  readonly cost?: CostEstimate;
}

async function planDeliberation(env: CouncilToolEnvironment, input: DeliberationInput): Promise<DeliberationCall> {
  const turn = await toolTurn(env);
  const settings = turn?.settings ?? readCouncilSettings();
  if (input.sessionId !== undefined) {
    const continuation = await continuationPreview(env, { ...input, sessionId: input.sessionId }, settings);
    if ('refused' in continuation || !turn) return { turn, continuation };
    const { log, estimate, seats, expected } = continuation;
    const cost = await priced(
      estimate,
      log.snapshot.context.requestText,
      Math.max(1, seats),
      turn.choice.model,
      settings,
      expected,
    );
    return { turn, continuation, cost };
  }
  // Without a model the confirmation still names the personas (the run then answers NO_MODEL).
  const registry = turn?.registry ?? (await loadCouncilPersonas(env.context.extensionUri, settings));
  const debate = newDebatePlan({ ...input, question: input.question ?? '' }, registry, settings);
  if (!turn) return { turn, debate };
  const seats = debate.named.length || MAX_PANEL;
  return {
    turn,
    debate,
    cost: await priced(debate.estimate, debate.request, seats, turn.choice.model, settings, debate.expected),
  };
}

/**
 * `council_deliberate`: runs the debate and the answer. With a `question` it starts a session that skips
 * clarification (as `/debate`); with a `sessionId` it continues a stored session as `@council` would: the user's
 * answers (questions left out become logged assumptions), extend, revisit, more questions, or retry.
 */
export function deliberateTool(env: CouncilToolEnvironment): vscode.LanguageModelTool<DeliberationInput> {
  const calls = new CallPlans<DeliberationCall>();
  return {
    async prepareInvocation(options) {
      const input = DeliberationInputSchema.safeParse(options.input);
      if (!input.success) return { invocationMessage: 'Consulting the council' };
      // Recording spends nothing; the record command shows the file and asks before writing it.
      if (input.data.action === 'record') return { invocationMessage: 'Preparing the decision record' };
      const { turn, continuation, debate, cost } = await calls.prepare(options.input, () =>
        planDeliberation(env, input.data),
      );
      const model = turn && modelText(turn.choice);
      const { sessionId } = input.data;
      if (continuation && 'refused' in continuation) return { invocationMessage: invocationMessage(input.data) };
      const confirmation =
        sessionId !== undefined && continuation
          ? confirmationMessage(
              {
                request: continuation.log.snapshot.context.requestText,
                named: [],
                unknownIds: [],
                cycles: continuation.cycles,
                estimate: continuation.estimate,
              },
              model,
              cost,
              {
                sessionId,
                council: councilLine(continuation.log.snapshot)
                  .replace(/^Council: /, '')
                  .replace(/\.$/, ''),
              },
            )
          : debate && confirmationMessage(debate, model, cost);
      if (!confirmation) return { invocationMessage: invocationMessage(input.data) };
      const { title, message } = confirmation;
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
      if (input.data.action === 'record') return textResult(await recordDecisionOf(env, input.data.sessionId));
      const { turn, continuation, debate } = await calls.take(options.input, () => planDeliberation(env, input.data));
      if (continuation && 'refused' in continuation) return textResult(continuation.refused);
      if (!turn) return textResult(NO_MODEL);
      const { settings, choice } = turn;
      if (continuation) {
        const preview = continuation;
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
              result: sessionResult(log, choice, {
                ...outcome,
                estimate: preview.estimate,
                ...(preview.expected !== undefined ? { expected: preview.expected } : {}),
              }),
            };
          },
          preview.log.spent,
        );
        return textResult(text);
      }
      const plan =
        debate ?? newDebatePlan({ ...input.data, question: input.data.question ?? '' }, turn.registry, settings);
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
          { commands: [{ kind: 'retry' }], debate: true },
          progress.token,
        );
        const how = { ...outcome, estimate: plan.estimate, expected: plan.expected, unknownIds: plan.unknownIds };
        return { log, result: sessionResult(log, choice, how) };
      });
      return textResult(text);
    },
  };
}

/** The `record` action: the stored session's decision, written after the user confirms (nothing is spent). */
async function recordDecisionOf(env: CouncilToolEnvironment, sessionId: string | undefined): Promise<string> {
  if (sessionId === undefined) return 'Recording a decision needs the sessionId of a session the council has answered.';
  const found = storedCouncilSession(env, sessionId, 'recorded');
  if ('refused' in found) return found.refused;
  const recorded = await recordSessionDecision(found.log, 'the chat model');
  return 'refused' in recorded ? recorded.refused : recorded.message;
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
