import { MAX_REPAIRS_PER_REPLY } from '../llm/repairBudget';
import type { AttachedItem } from '../session/attachedItem';
import { throwIfCancelled } from '../llm/languageModel';
import { selectPersonas, type PersonaSelection } from '../personas/select';
import { clarificationRoundLimit } from '../session/limits';
import type { QuestionDraft } from '../session/events';
import { openSession } from './opening';
import { lookUpPrecedent } from './precedentLookup';
import type { SessionLimitsInit } from '../session/limits';
import { activeQuestion, canAskMore, pendingQuestions } from '../session/selectors';
import type { SessionEvent } from '../session/events';
import { assumptionFor, proposeQuestions } from './clarify';
import type { CouncilCommand } from './commands';
import { debateTokens, EXPECTED_OUTPUT_TOKENS, requireSmallestCouncil, seatCost } from './debatePlan';
import { OUTPUT_RESERVE_TOKENS } from '../llm/spending/governor';
import { MAX_PANEL, MIN_PANEL } from '../personas/select';
import { runEconomyDebate } from './economyDebate';
import { runThoroughDebate } from './thoroughDebate';
import { SpendingGovernor, type SpendingScope } from '../llm/spending/governor';
import { PriceBook } from '../llm/spending/prices';
import { spendBrief } from '../llm/spending/spendText';
import { findCurrentDiscussion } from '../session/queries';
import { effectiveCycleLimit } from '../session/selectors';
import { councilSeats } from './sessionFacts';
import { questionPosition } from './questionPosition';
import { debateForecastNote, NO_FURTHER_QUESTIONS, questionCard } from './wording/markdown';
import {
  CHOOSING_COUNCIL,
  CHOOSING_COUNCIL_AND_QUESTIONS,
  LOOKING_FOR_AMBIGUITY,
  LOOKING_FOR_MORE_QUESTIONS,
} from './wording/progressText';
import { eventText } from './wording/sessionEventText';
import { SKIP_CLARIFICATION } from './commands';
import { showVisibly, type CouncilDeps } from './ports';
import { SessionLog, SessionRuleError, type Recorder } from './sessionLog';
import { personaParticipant } from './sessionFacts';
import { concludeCouncil, type AnswerFromVote } from './synthesize';
import {
  COUNCIL_LEDGER_NAME,
  forecastDebate,
  measuredContributions,
  type DebateForecastFigures,
} from './debateForecast';
import { debateLimitNote } from './wording/limitNotes';
import type { DebateEnding, DebateOutcome } from './debateOutcome';
import type { SessionSnapshot } from '../session/machine';
import type { SpendTotals } from '../llm/spending/ledger';

/** How a new council session starts. */
export interface NewSessionOptions {
  readonly request: string;
  readonly userId: string;
  readonly limits: SessionLimitsInit;
  /** `/debate`: go straight to the debate. */
  readonly skipClarification?: boolean;
  /** Context the user attached to the request, already bounded. */
  readonly attached?: readonly AttachedItem[];
}

/** A new, empty session for `request`. Recorded in the log so a retry after a failure still knows the user's choices. */
export function newCouncilSession(options: NewSessionOptions, deps: Pick<CouncilDeps, 'clock' | 'ids'>): SessionLog {
  return SessionLog.start({
    sessionId: deps.ids.next(),
    userId: options.userId,
    requestText: options.request,
    createdAt: deps.clock.now(),
    limits: options.limits,
    metadata: { featureFlags: options.skipClarification ? [SKIP_CLARIFICATION] : [] },
    ...(options.attached && options.attached.length > 0 ? { attached: [...options.attached] } : {}),
  });
}

/** Records each event, persists the session, then shows the user what was recorded (sessionEventText). */
function recorder(log: SessionLog, deps: CouncilDeps): Recorder {
  return async (event: SessionEvent) => {
    log.apply(event);
    await deps.persist?.(log.stored);
    const shown = eventText(event, log.snapshot);
    if (shown?.visible) showVisibly(deps.output, shown.markdown);
    else if (shown) deps.output.markdown(shown.markdown);
  };
}

function requireActiveQuestion(log: SessionLog) {
  const question = activeQuestion(log.snapshot);
  if (!question) {
    throw new SessionRuleError(
      log.state === 'clarifying'
        ? 'There is no open question right now.'
        : 'There is no open clarifying question in this session.',
    );
  }
  return question;
}

/**
 * A step the council ran on its own (selection, questions, debate, synthesis) produced an event the session
 * refused. That is Council's bug, never the user's: the handler reports it as a failure with Try again.
 */
export class CouncilStepRejected extends Error {
  constructor(
    readonly state: string,
    readonly rule: string,
  ) {
    super(`The session refused the ${state} step's event: ${rule}`);
    this.name = 'CouncilStepRejected';
  }
}

/** Records an event a council step derived from a model reply; a refusal is Council's bug, not the user's. */
async function recordStep(log: SessionLog, record: Recorder, event: SessionEvent): Promise<void> {
  try {
    await record(event);
  } catch (error) {
    throw error instanceof SessionRuleError ? new CouncilStepRejected(log.state, error.message) : error;
  }
}

/** What a turn did that its response must reflect beyond the session's state. */
export interface TurnReport {
  /** The council was asked for more questions and had none: do not offer "Ask more questions" again now. */
  readonly noFurtherQuestions: boolean;
  /**
   * The answer's own request failed: the answer was shown from the vote and the standing positions (here, with why),
   * and the session waits in its final step for Try again to write it in full.
   */
  readonly answerPending?: AnswerFromVote;
}

/** Applies what the user asked for in this turn; returns whether "more questions" found none. */
async function applyCommand(
  log: SessionLog,
  command: CouncilCommand,
  deps: CouncilDeps,
  record: Recorder,
): Promise<boolean> {
  const at = deps.clock.now();
  switch (command.kind) {
    case 'answer': {
      requireActiveQuestion(log);
      await record({ type: 'QUESTION_ANSWERED', answer: { answerId: deps.ids.next(), answer: command.text }, at });
      return false;
    }
    case 'accept': {
      const question = requireActiveQuestion(log);
      if (!question.recommendedAnswer)
        throw new SessionRuleError('This question has no recommended answer; please type your answer.');
      await record({
        type: 'QUESTION_ANSWERED',
        answer: { answerId: deps.ids.next(), answer: question.recommendedAnswer },
        at,
      });
      return false;
    }
    case 'skip': {
      const question = requireActiveQuestion(log);
      await record({ type: 'QUESTION_SKIPPED', assumption: assumptionFor(question, deps.ids.next()), at });
      return false;
    }
    case 'skipAll': {
      requireActiveQuestion(log);
      const assumptions = pendingQuestions(log.snapshot).map(q => ({
        ...assumptionFor(q, deps.ids.next()),
        relatedQuestionId: q.questionId,
      }));
      await record({ type: 'REMAINING_SKIPPED', assumptions, at });
      return false;
    }
    case 'more': {
      if (!canAskMore(log.snapshot)) {
        const rounds = log.snapshot.context.limits.maxClarificationRounds;
        throw new SessionRuleError(
          log.state === 'clarifying'
            ? `Clarification is limited to ${rounds} round${rounds === 1 ? '' : 's'}; this session has used them all. Answer or skip the open question to continue.`
            : 'More questions can only be asked while the council is clarifying.',
        );
      }
      deps.output.progress(LOOKING_FOR_MORE_QUESTIONS);
      const questions = await proposeQuestions(log, deps);
      if (questions.length === 0) {
        deps.output.markdown(NO_FURTHER_QUESTIONS);
        return true;
      }
      await recordStep(log, record, { type: 'MORE_QUESTIONS_ADDED', questions, at: deps.clock.now() });
      return false;
    }
    case 'revisit':
      await record({ type: 'SKIPPED_REVISITED', at });
      return false;
    case 'extend':
      await record({ type: 'DEBATE_EXTENDED', at });
      return false;
    case 'cancel':
      await record({ type: 'CANCELLED', at });
      return false;
    case 'retry':
      return false;
  }
}

/** Records the chosen council (the record shows it, with why it was chosen). */
async function seatCouncil(selection: PersonaSelection, deps: CouncilDeps, record: Recorder): Promise<void> {
  const base = {
    selectionId: deps.ids.next(),
    requestClassification: selection.classification,
    reason: selection.reason,
    ...(selection.options ? { options: [...selection.options] } : {}),
    ...(selection.outlook ? { outlook: selection.outlook } : {}),
  };
  await record({
    type: 'PERSONAS_SELECTED',
    selection: selection.userOverride
      ? { ...base, userOverride: true, overriddenPersonas: [...selection.overriddenPersonas] }
      : { ...base, userOverride: false },
    participants: selection.personas.map(personaParticipant),
    at: deps.clock.now(),
  });
}

/** Opens the clarification with `questions`, or goes straight to the debate when there are none. */
async function startClarifying(
  questions: readonly QuestionDraft[],
  deps: CouncilDeps,
  record: Recorder,
): Promise<void> {
  if (questions.length === 0) return record({ type: 'DEBATE_REQUESTED', at: deps.clock.now() });
  return record({ type: 'CLARIFICATION_STARTED', questions: [...questions], at: deps.clock.now() });
}

/**
 * Selects the council and opens clarification (or goes straight to debate). The economy protocol asks for
 * both in one request (open_session); the thorough one, and `/debate`, ask for the selection alone.
 */
async function begin(log: SessionLog, deps: CouncilDeps, record: Recorder): Promise<void> {
  const context = log.snapshot.context;
  const skipClarification = context.metadata.featureFlags?.includes(SKIP_CLARIFICATION) ?? false;
  if (!context.selection && !skipClarification && deps.protocol !== 'thorough') {
    deps.output.progress(CHOOSING_COUNCIL_AND_QUESTIONS);
    const opening = await openSession({
      request: context.requestText,
      attached: context.attached ?? [],
      personas: deps.personas,
      model: deps.model,
      token: deps.token,
      defaults: deps.selectionDefaults,
      maxRounds: clarificationRoundLimit(context.limits),
      onNormalized: deps.onNormalized,
    });
    await seatCouncil(opening.selection, deps, record);
    const askedBy = { kind: 'system' as const };
    return startClarifying(
      opening.questions.map(q => ({ ...q, questionId: deps.ids.next(), askedBy })),
      deps,
      record,
    );
  }
  if (!context.selection) {
    deps.output.progress(CHOOSING_COUNCIL);
    const selection = await selectPersonas({
      request: context.requestText,
      attached: context.attached,
      personas: deps.personas,
      model: deps.model,
      token: deps.token,
      defaults: deps.selectionDefaults,
    });
    await seatCouncil(selection, deps, record);
  }
  if (skipClarification) {
    return record({ type: 'DEBATE_REQUESTED', at: deps.clock.now() });
  }
  deps.output.progress(LOOKING_FOR_AMBIGUITY);
  return startClarifying(await proposeQuestions(log, deps), deps, record);
}

/** How far a turn goes on its own. */
export interface TurnReach {
  /**
   * Stop where the debate would start (the opening and the clarifying answers only): a tool that opens a session
   * or records answers has the user's consent for that, not for the debate's requests.
   */
  readonly stopBeforeDebate?: boolean;
}

/**
 * One chat turn of a council session: apply the user's command, then run every step that needs
 * no user input (selection, questions, debate cycles, synthesis) until the next question or the
 * final answer. Each step is recorded as it completes, so an error, a Stop or a reload loses
 * nothing: the next turn with `resume` continues exactly where this one stopped.
 */
export async function runCouncilTurn(
  log: SessionLog,
  command: CouncilCommand,
  unpaid: CouncilDeps,
  reach: TurnReach = {},
): Promise<TurnReport> {
  const deps = governed(log, unpaid);
  const record = recorder(log, deps);
  const spentBefore = log.requestsUsed;
  try {
    const noFurtherQuestions = await applyCommand(log, command, deps, record);
    let answerPending: AnswerFromVote | undefined;
    try {
      answerPending = await advance(log, deps, record, reach);
    } catch (error) {
      if (error instanceof SessionRuleError) throw new CouncilStepRejected(log.state, error.message);
      throw error;
    }
    return { noFurtherQuestions, ...(answerPending === undefined ? {} : { answerPending }) };
  } finally {
    // Requests spent after the last recorded event (a failure, a Stop) are stored too.
    if (log.requestsUsed !== spentBefore) await deps.persist?.(log.stored);
  }
}

/** How a refusal names the session's limits (the door's advice says how to raise them). */
const SESSION_SCOPE: SpendingScope = {
  subject: 'This session',
  limits: { credits: 'sessionCredits', requests: 'sessionRequests' },
  work: 'session',
};

/** The step a request is charged to in the ledger, from where the session stands. */
function stepOf(log: SessionLog): string {
  const context = log.snapshot.context;
  switch (log.state) {
    case 'created':
      return 'opening';
    case 'clarifying':
      return 'clarification';
    case 'debating':
      return `cycle ${findCurrentDiscussion(context)?.cycleNumber ?? context.debateCycles + 1}`;
    default:
      return 'answer';
  }
}

/**
 * `deps` with every model paid through the session's spending governor, which records each request in the
 * session's ledger (stored with it); progress lines carry the running total once the turn has spent anything.
 */
function governed(log: SessionLog, deps: CouncilDeps): CouncilDeps {
  const governor: SpendingGovernor = SpendingGovernor.create({
    limits: deps.spending?.limits ?? {},
    prices: deps.spending?.prices ?? new PriceBook(),
    scope: SESSION_SCOPE,
    ...(deps.spending?.advice ? { advice: deps.spending.advice } : {}),
    ledger: log.ledger,
    spentBefore: log.spent,
    step: () => stepOf(log),
    // What the planners assume a request reserves: as the governor checks it, at the chat model's price.
    requestCredits: () => governor.quote(deps.model, requestTokensEstimate(log), OUTPUT_RESERVE_TOKENS),
    expectedRequestCredits: () => governor.quote(deps.model, requestTokensEstimate(log), EXPECTED_OUTPUT_TOKENS),
  });
  const spentBefore = log.requestsUsed;
  const output = deps.output;
  const roleModels = deps.roleModels;
  return {
    ...deps,
    governor,
    model: governor.model(deps.model, COUNCIL_LEDGER_NAME),
    output: {
      progress: message =>
        output.progress(governor.spent.requests > spentBefore ? `${message} (${spendBrief(governor.spent)})` : message),
      markdown: text => output.markdown(text),
      ...(output.visible ? { visible: (text: string) => output.visible?.(text) } : {}),
      ...(output.release ? { release: () => output.release?.() } : {}),
      ...(output.question ? { question: output.question.bind(output) } : {}),
      ...(output.anchor ? { anchor: (path: string) => output.anchor?.(path) } : {}),
    },
    // Every persona and the synthesis are charged by name, on their own models or the chat's.
    roleModels: {
      forPersona: async persona => {
        const seat = councilSeats(log.snapshot, deps.personas).findIndex(seat => seat.persona.id === persona.id);
        const choice = roleModels ? await roleModels.forPersona(persona, Math.max(0, seat)) : { model: deps.model };
        return { ...choice, model: governor.model(choice.model, persona.name) };
      },
      forSynthesis: async () => {
        const choice = roleModels ? await roleModels.forSynthesis() : { model: deps.model };
        return { ...choice, model: governor.model(choice.model, 'Synthesis') };
      },
    },
  };
}

/**
 * The input tokens a council request is assumed to carry, for planning what the limits pay for before sending:
 * the largest request the session has sent so far, or, before the first, the request and its context, a step's
 * instructions and reply schema, and every seat's position (characters / 4: planning needs no model call).
 */
function requestTokensEstimate(log: SessionLog): number {
  const context = log.snapshot.context;
  const text = [context.requestText, ...log.attached.map(a => a.content ?? '')].join('\n');
  const seats = Math.max(MAX_PANEL, context.participants.filter(p => p.type === 'persona').length);
  const planned = debateTokens(1, Math.ceil(text.length / 4), seats).input;
  const largest = Math.max(0, ...log.ledger.entries.map(line => line.inputTokens));
  return Math.max(planned, largest);
}

/** Tokens of what every request of the session carries: the request and the attached context. */
function contextTokens(log: SessionLog, deps: CouncilDeps): Promise<number> {
  return deps.model.countTokens(
    [log.snapshot.context.requestText, ...log.attached.map(a => a.content ?? '')].join('\n'),
  );
}

/**
 * The debate's two figures from where the session stands (`seats`: the council's, or the largest panel before it
 * is chosen); undefined when the limits leave room for no cycle.
 */
async function sessionDebateForecast(
  log: SessionLog,
  deps: CouncilDeps,
  seats = councilSeats(log.snapshot, deps.personas).length,
  remaining = deps.governor?.affordableRequests() ?? Infinity,
): Promise<DebateForecastFigures | undefined> {
  return forecastDebate({
    protocol: deps.protocol ?? 'economy',
    seats,
    cycleLimit: effectiveCycleLimit(log.snapshot),
    remaining,
    seatCost: seatCost(deps, log.attached.length),
    contextTokens: await contextTokens(log, deps),
    measured: measuredContributions(log.ledger.entries),
    history: deps.debateHistory?.read() ?? [],
    outlook: log.snapshot.context.selection?.outlook,
    quote: (input, output) => deps.governor?.quote(deps.model, input, output),
  });
}

/**
 * The line before the debate: what it expects to spend, from the same rules the debate runs by. The governor
 * keeps the two figures for its refusals: a limit decides on the bound, and its message says the expected figure too.
 */
async function debateForecast(log: SessionLog, deps: CouncilDeps): Promise<string | undefined> {
  const figures = await sessionDebateForecast(log, deps);
  if (!figures) return undefined;
  deps.governor?.setForecast(debateLimitNote(figures.expected, figures.bound));
  const protocol = deps.protocol ?? 'economy';
  return debateForecastNote({
    ...figures.estimate,
    expected: figures.expected,
    bound: figures.bound,
    protocol,
    spend: { totals: log.spent, limits: deps.spending?.limits },
    repairsPerReply: MAX_REPAIRS_PER_REPLY,
    votesFirst: protocol === 'economy' && (log.snapshot.context.selection?.options?.length ?? 0) > 0,
    outlook: log.snapshot.context.selection?.outlook,
  });
}

/**
 * Tells the governor the debate's figures before the opening, for the sentence its refusals add: what the debate
 * needs without the limit (a refusal here is about that limit, so the user reads how far it falls short).
 */
async function noteOpeningForecast(log: SessionLog, deps: CouncilDeps): Promise<void> {
  if (!deps.governor) return;
  const named = councilSeats(log.snapshot, deps.personas).length;
  const figures = await sessionDebateForecast(log, deps, named > 0 ? named : MAX_PANEL, Infinity);
  if (figures) deps.governor.setForecast(debateLimitNote(figures.expected, figures.bound));
}

/** How the session's debate ended, by its last cycle. */
function debateEnding(snapshot: SessionSnapshot): DebateEnding {
  const last = snapshot.context.discussions.at(-1);
  if (!last || last.status !== 'concluded' || !last.converged) return { kind: 'limit' };
  return last.cycleNumber <= 1 ? { kind: 'first-vote' } : { kind: 'settled', cycle: last.cycleNumber };
}

/** Adds what this debate spent (from its first drafts to the answer) to the workspace's history. */
async function rememberOutcome(log: SessionLog, deps: CouncilDeps, start: SpendTotals): Promise<void> {
  if (!deps.debateHistory) return;
  const first = log.snapshot.context.discussions[0];
  const requests = log.spent.requests - start.requests;
  if (!first || requests <= 0) return;
  const protocol = deps.protocol ?? 'economy';
  const seats = first.participatingPersonaIds.length;
  const ending = debateEnding(log.snapshot);
  // Thorough's first cycle ends with the moderator's verdict, unless its drafts agreed at the first vote.
  const moderator = protocol === 'thorough' && ending.kind !== 'first-vote' ? 1 : 0;
  const drafts = Math.min(requests, seats * seatCost(deps, log.attached.length) + moderator);
  const answer = requests > drafts ? 1 : 0;
  const outlook = log.snapshot.context.selection?.outlook;
  const outcome: DebateOutcome = {
    protocol,
    ...(outlook ? { outlook } : {}),
    seats,
    ending,
    drafts,
    laterCycles: requests - drafts - answer,
    answer,
    inputTokens: log.spent.inputTokens - start.inputTokens,
    outputTokens: log.spent.outputTokens - start.outputTokens,
  };
  try {
    await deps.debateHistory.remember(outcome);
  } catch {
    // A history that cannot be stored only makes the next forecast less informed; the answer stands.
  }
}

/** Runs the steps that need no user input until the next question, the final answer or the end. */
async function advance(
  log: SessionLog,
  deps: CouncilDeps,
  record: Recorder,
  reach: TurnReach,
): Promise<AnswerFromVote | undefined> {
  // What the session had spent when this turn's debate began: its cost is remembered once the answer is in.
  let debateStart: SpendTotals | undefined;
  for (;;) {
    throwIfCancelled(deps.token);
    switch (log.state) {
      case 'created':
        // Before the opening is paid for: the smallest council that can answer must fit after it. A refusal
        // also says what the debate would probably cost (its council not chosen yet: the largest panel's).
        await noteOpeningForecast(log, deps);
        requireSmallestCouncil(MIN_PANEL, 1, deps, seatCost(deps, log.attached.length));
        await lookUpPrecedent(log, deps);
        await begin(log, deps, record);
        break;
      case 'clarifying': {
        const question = activeQuestion(log.snapshot);
        if (question && deps.output.question) deps.output.question(question, questionPosition(log.snapshot, question));
        else if (question) showVisibly(deps.output, questionCard(log.snapshot, question));
        return undefined;
      }
      case 'debating':
        if (log.snapshot.context.debateCycles === 0 && !findCurrentDiscussion(log.snapshot.context)) {
          if (reach.stopBeforeDebate) return undefined;
          const forecast = await debateForecast(log, deps);
          if (forecast) deps.output.markdown(forecast);
          debateStart = log.spent;
        }
        await (deps.protocol === 'thorough' ? runThoroughDebate : runEconomyDebate)(log, deps, record);
        break;
      case 'final': {
        if (reach.stopBeforeDebate && log.snapshot.context.debateCycles === 0) return undefined;
        const pending = await concludeCouncil(log, deps, record);
        if (pending !== undefined) return pending;
        if (debateStart) await rememberOutcome(log, deps, debateStart);
        debateStart = undefined;
        break;
      }
      case 'completed':
      case 'cancelled':
        return undefined;
    }
  }
}
