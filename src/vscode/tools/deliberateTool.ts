import type * as vscode from 'vscode';
import {
  confirmationMessage,
  deliberationPlan,
  DeliberationInputSchema,
  invocationMessage,
  expectedRequests,
  expectedSpend,
  requestEstimate,
  type DeliberationInput,
  type RequestEstimate,
} from '../../core/council/deliberation';
import { continuationCommands, councilLine, TOOL } from '../../core/council/toolSession';
import { MAX_PANEL } from '../../core/personas/select';
import { debateTokens, type DebateExpectation } from '../../core/council/debatePlan';
import { effectiveCycleLimit } from '../../core/session/selectors';
import { lookupRoundsWithoutAttachments } from '../chat/councilDeps';
import { withPinned } from '../personas/pinnedPersonas';
import { recordSessionDecision } from '../decisions/recordSession';
import {
  type CouncilToolEnvironment,
  type SessionCall,
  modelText,
  priced,
  sessionTool,
  storedCouncilSession,
  toolTurn,
} from './councilToolRun';

/**
 * One `council_deliberate` call, from one settings read: continuing a stored session, the commands that carry out
 * its action and what they may cost; a new session by question, its debate plan and cost.
 */
async function planDeliberation(env: CouncilToolEnvironment, input: DeliberationInput): Promise<SessionCall> {
  const { settings, registry, turn } = await toolTurn(env);
  const model = turn && modelText(turn.choice);
  const lookups = lookupRoundsWithoutAttachments(settings);
  const budget = settings.spending.session.maxRequests;
  if (input.sessionId === undefined) {
    const question = input.question ?? '';
    const { limits, protocol } = settings;
    const facts = { history: env.store.debateHistory().read() };
    const plan = deliberationPlan(
      { ...input, question },
      registry.personas,
      limits.debateCycleLimit,
      limits.adminMaxDebateCycles,
      lookups,
      { protocol, budget, facts },
    );
    const seats = plan.named.length || MAX_PANEL;
    const expected = (context: number) =>
      expectedSpend(context, plan.panel, plan.cycles, lookups, protocol, budget, facts);
    const cost = turn && (await priced(plan.estimate, plan.request, seats, turn.choice.model, settings, expected));
    const session = {
      request: withPinned(plan.request, plan.named),
      limits: { ...limits, debateCycleLimit: plan.cycles },
      skipClarification: true,
    };
    return {
      turn,
      confirmation: confirmationMessage(plan, model, cost),
      run: {
        session,
        commands: [{ kind: 'retry' }],
        asks: false,
        estimate: plan.estimate,
        expected: plan.expected,
        unknownIds: plan.unknownIds,
      },
    };
  }
  const found = storedCouncilSession(env, input.sessionId, 'continued');
  if ('refused' in found) return { turn, refused: found.refused };
  const { log } = found;
  const { snapshot } = log;
  const planned = continuationCommands(snapshot, input);
  if ('refused' in planned) return { turn, refused: planned.refused };
  // Revisit and more questions reopen clarification: the user answers before anything is debated.
  const asks = input.action === 'revisit' || input.action === 'more';
  const seats = snapshot.context.participants.filter(p => p.type === 'persona').length;
  const limit =
    input.action === 'extend' ? snapshot.context.limits.adminMaxDebateCycles : effectiveCycleLimit(snapshot);
  const cycles = Math.max(1, limit - snapshot.context.debateCycles);
  const left = budget === undefined ? undefined : Math.max(0, budget - log.requestsUsed);
  const debates = !asks && planned.commands.length > 0;
  const panel = { named: seats, available: seats };
  const estimate: RequestEstimate = asks
    ? { fewest: input.action === 'more' ? 1 : 0, most: input.action === 'more' ? 1 : 0 }
    : debates
      ? requestEstimate(panel, cycles, lookups, settings.protocol, left)
      : { fewest: 0, most: 0 };
  // What it will probably spend: as a new debate's, learnt from this workspace and the session's own read.
  const facts = { history: env.store.debateHistory().read(), outlook: snapshot.context.selection?.outlook };
  const spend = (context: number): DebateExpectation =>
    debates
      ? expectedSpend(context, panel, cycles, lookups, settings.protocol, left, facts)
      : { requests: estimate.most, ...debateTokens(estimate.most, context, Math.max(1, seats), settings.protocol) };
  const expected = debates ? expectedRequests(panel, cycles, lookups, settings.protocol, left, facts) : estimate.most;
  const request = snapshot.context.requestText;
  const cost =
    turn &&
    (await priced(
      estimate,
      request,
      Math.max(1, seats),
      turn.choice.model,
      settings,
      expected > 0 ? spend : undefined,
    ));
  const council = councilLine(snapshot)
    .replace(/^Council: /, '')
    .replace(/\.$/, '');
  return {
    turn,
    confirmation: confirmationMessage({ request, named: [], unknownIds: [], cycles, estimate }, model, cost, {
      sessionId: input.sessionId,
      council,
    }),
    run: { session: log, commands: planned.commands, asks, estimate, ...(expected > 0 ? { expected } : {}) },
  };
}

/**
 * `council_deliberate`: runs the debate and the answer. With a `question` it starts a session that skips
 * clarification (as `/debate`); with a `sessionId` it continues a stored session as `@council` would: the user's
 * answers (questions left out become logged assumptions), extend, revisit, more questions, or retry; `record` writes
 * the answered session's decision record (no model request; the record command shows the file and asks first).
 */
export function deliberateTool(env: CouncilToolEnvironment): vscode.LanguageModelTool<DeliberationInput> {
  return sessionTool(env, TOOL.deliberate, {
    schema: DeliberationInputSchema,
    working: input => (input ? invocationMessage(input) : 'Consulting the council'),
    plan: input => planDeliberation(env, input),
    direct: input =>
      input.action === 'record'
        ? { working: 'Preparing the decision record', run: () => recordDecisionOf(env, input.sessionId) }
        : undefined,
  });
}

/** The `record` action: the stored session's decision, written after the user confirms (nothing is spent). */
async function recordDecisionOf(env: CouncilToolEnvironment, sessionId: string | undefined): Promise<string> {
  if (sessionId === undefined) return 'Recording a decision needs the sessionId of a session the council has answered.';
  const found = storedCouncilSession(env, sessionId, 'recorded');
  if ('refused' in found) return found.refused;
  const recorded = await recordSessionDecision(found.log, 'the chat model');
  return 'refused' in recorded ? recorded.refused : recorded.message;
}
