import { MAX_REPAIRS_PER_REPLY } from '../llm/repairBudget';
import type { z } from 'zod';
import { DebateTurnPrompt } from './prompts/debateTurnPrompt';
import { renderMessages } from '../llm/prompting/render';
import {
  CancelledError,
  LanguageModelFailure,
  type CancellationSignal,
  type LanguageModel,
} from '../llm/languageModel';
import { requestStructured } from '../llm/structuredOutput';
import { findCurrentDiscussion, spokenPersonaIds } from '../session/queries';
import type { DebateCycleRecord } from './prompts/promptData';
import { absentNotice, modelNote } from './wording/markdown';
import { showVisibly, type CouncilDeps } from './ports';
import { stanceProblem } from '../session/stance';
import { contributionReplySchema, OWN_LABEL, OWN_VOTE, type PersonaContribution } from './prompts/replies';
import { anonymizedCycles, peerLabels, type PeerLabels } from './anonymousPeers';
import { contributionNormalizer, type SpeakerTerms } from './replyNormalizers';
import type { Recorder, SessionLog } from './sessionLog';
import { citedFiles, groundingApplies, groundInWorkspace } from './workspaceGrounding';
import { clarifiedRequest, councilSeats, debateRecords, voiceOf, type Seat } from './sessionFacts';

/*
 * What both debate protocols share: one persona's contribution to a cycle (on its own model, optionally
 * grounded in the workspace), recorded and shown as soon as it arrives.
 */

/** One persona's attempt in a cycle. */
export type Outcome =
  | {
      readonly seat: Seat;
      readonly ok: true;
      readonly contribution: PersonaContribution;
      readonly cited: readonly string[];
      readonly model: string;
    }
  | { readonly seat: Seat; readonly ok: false; readonly error: unknown };

/** What the session knows when `seat` speaks in `cycle`: its colleagues and its previous position. */
function speakerTerms(
  seat: Seat,
  cycle: number,
  previous: readonly DebateCycleRecord[],
  log: SessionLog,
  deps: CouncilDeps,
): SpeakerTerms & { readonly names: readonly string[]; readonly peers: PeerLabels } {
  const self = seat.persona.name;
  const names = councilSeats(log.snapshot, deps.personas)
    .map(s => s.persona.name)
    .filter(name => name !== self);
  const peers = peerLabels(names);
  const previousPosition = previous
    .flatMap(r => r.contributions)
    .filter(c => c.persona === self)
    .at(-1)?.position;
  const options = log.snapshot.context.selection?.options;
  const records = log.snapshot.context.precedent?.records.map(r => String(r.number));
  // From cycle 2 the speaker knows its colleagues only by their positions' labels.
  return {
    cycle,
    self,
    colleagues: cycle <= 1 ? names : peers.labels,
    previousPosition,
    names,
    peers,
    ...(options && options.length > 0 ? { options } : {}),
    ...(records && records.length > 0 ? { records } : {}),
  };
}

/** A reply in the speaker's terms (labels) back in the session's (names). */
function withNames(contribution: PersonaContribution, self: string, peers: PeerLabels): PersonaContribution {
  const name = (label: string) => peers.nameOf(label) ?? label;
  return {
    ...contribution,
    agreesWith: contribution.agreesWith.map(name),
    ...(contribution.vote === undefined
      ? {}
      : { vote: contribution.vote === OWN_VOTE ? self : name(contribution.vote) }),
  };
}

/** The contribution schema sent for these terms, plus the session's stance rule as a last check before repair. */
function contributionSchema(terms: SpeakerTerms): z.ZodType<PersonaContribution> {
  return contributionReplySchema(terms).superRefine((contribution, ctx) => {
    const problem = stanceProblem(contribution);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, path: ['changeReason'] });
  });
}

const shownNotes = new WeakMap<object, Set<string>>();

/** A model-choice note (e.g. a persona's preferred model is not available), shown once per turn. */
function noteOnce(deps: CouncilDeps, note: string): void {
  const shown = shownNotes.get(deps.output) ?? new Set<string>();
  shownNotes.set(deps.output, shown);
  if (shown.has(note)) return;
  shown.add(note);
  showVisibly(deps.output, modelNote(note));
}

/** The model `seat` speaks with: its own (settings, persona file) or the chat's. */
export async function personaModel(seat: Seat, deps: CouncilDeps): Promise<LanguageModel> {
  if (!deps.roleModels) return deps.model;
  const choice = await deps.roleModels.forPersona(seat.persona);
  if (choice.note) noteOnce(deps, choice.note);
  return choice.model;
}

/**
 * Asks one persona for its contribution to `cycle`; `cited`: the workspace files it read and names. A failure
 * is returned, not thrown, so the colleagues' contributions are kept.
 */
async function attempt(
  seat: Seat,
  cycle: number,
  previous: readonly DebateCycleRecord[],
  log: SessionLog,
  deps: CouncilDeps,
  token: CancellationSignal,
): Promise<Outcome> {
  try {
    const model = await personaModel(seat, deps);
    const terms = speakerTerms(seat, cycle, previous, log, deps);
    const shape = {
      schema: contributionSchema(terms),
      name: 'contribute_to_debate',
      description: `${seat.persona.name}'s contribution to debate cycle ${cycle}.`,
    };
    const { messages } = await renderMessages(
      DebateTurnPrompt,
      {
        ...clarifiedRequest(log.snapshot),
        persona: voiceOf(seat.persona),
        cycle,
        previousCycles: anonymizedCycles(previous, seat.persona.name, terms.peers, terms.names),
        ownName: OWN_LABEL,
        condensed: deps.protocol !== 'thorough',
        ...(terms.options ? { options: terms.options } : {}),
      },
      model,
      token,
      { reply: shape },
    );
    // Looking things up first is opt-in (attached context or the setting), bounded, and read-only.
    const grounded = groundingApplies(deps.workspace, log.attached.length)
      ? await groundInWorkspace(model, messages, deps.workspace, token)
      : { messages, read: [] };
    const reply = await requestStructured(
      model,
      {
        ...shape,
        normalize: contributionNormalizer(terms),
        onNormalized: changes =>
          deps.onNormalized?.(`contribute_to_debate (${seat.persona.name}, cycle ${cycle})`, changes),
        // A retry is a request more: the user sees it while it runs, not only in the footer.
        onRetry: attempt =>
          deps.output.progress(
            `${seat.persona.name}'s reply was not in the expected format; asking again (attempt ${attempt} of ${1 + MAX_REPAIRS_PER_REPLY}, a request more)…`,
          ),
        messages: grounded.messages,
      },
      token,
    );
    const contribution = withNames(reply, seat.persona.name, terms.peers);
    return { seat, ok: true, contribution, cited: citedFiles(contribution.argument, grounded.read), model: model.name };
  } catch (error) {
    return { seat, ok: false, error };
  }
}

/** Drafts `seats`' contributions to `cycle` in parallel without recording them (the thorough protocol's drafting ahead). */
export function draftCycle(
  seats: readonly Seat[],
  cycle: number,
  log: SessionLog,
  deps: CouncilDeps,
  token: CancellationSignal,
): Promise<Outcome[]> {
  const previous = debateRecords(log.snapshot).filter(r => r.cycle < cycle);
  return Promise.all(seats.map(seat => attempt(seat, cycle, previous, log, deps, token)));
}

/** Records one successful contribution (the record shows it) and links the files it cites. */
async function recordOutcome(
  outcome: Extract<Outcome, { ok: true }>,
  deps: CouncilDeps,
  record: Recorder,
): Promise<void> {
  const { contribution, seat } = outcome;
  const otherModel = outcome.model === deps.model.name ? undefined : outcome.model;
  await record({
    type: 'PERSONA_SPOKE',
    turn: {
      senderId: seat.participantId,
      content: contribution.argument,
      position: contribution.position,
      changedPosition: contribution.changedPosition,
      changeReason: contribution.changeReason,
      agreesWith: [...contribution.agreesWith],
      concerns: [...contribution.concerns],
      keyPoints: [...contribution.keyPoints],
      confidence: contribution.confidence,
      ...(contribution.vote === undefined ? {} : { vote: contribution.vote }),
      ...(contribution.option === undefined ? {} : { option: contribution.option }),
      ...(contribution.againstRecords === undefined ? {} : { againstRecords: [...contribution.againstRecords] }),
      timestamp: deps.clock.now(),
      // The model only when the persona spoke on another than the chat's, for the transcript.
      ...(otherModel ? { metadata: { model: otherModel } } : {}),
    },
  });
  // Links only for recorded contributions, beside their text (a discarded draft never shows any).
  for (const path of outcome.cited) deps.output.anchor?.(path);
}

/** Records the successful contributions; returns the failures (the caller decides, as for `speakInCycle`). */
export async function recordOutcomes(
  outcomes: readonly Outcome[],
  deps: CouncilDeps,
  record: Recorder,
): Promise<readonly SeatFailure[]> {
  const failures: SeatFailure[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) await recordOutcome(outcome, deps, record);
    else failures.push({ seat: outcome.seat, error: outcome.error });
  }
  return failures;
}

/** Failures that would meet every later request of the turn too: the turn stops on them (Try again goes on). */
const TURN_WIDE_FAILURES: ReadonlySet<string> = new Set([
  'cancelled',
  'noPermissions',
  'blocked',
  'rateLimited',
  'quotaExceeded',
  'tooLarge',
  'notFound',
]);

/**
 * Whether `error` stops the turn rather than one seat: a cancellation, or a failure of the model or the account that
 * the colleagues' and the answer's requests would meet too (no consent, rate limit, used-up allowance, model gone).
 * A failure of one request (a server error, a reply still malformed after its repairs, a content refusal, a request
 * the spending limit refused) leaves the council to go on without that seat.
 */
export function stopsTheTurn(error: unknown): boolean {
  if (error instanceof CancelledError) return true;
  return error instanceof LanguageModelFailure ? TURN_WIDE_FAILURES.has(error.kind) : true;
}

/** A seat whose contribution failed, and why. */
export interface SeatFailure {
  readonly seat: Seat;
  readonly error: unknown;
}

/**
 * `seats` speak in `cycle` in parallel (a cycle costs about one model round-trip); each contribution is recorded
 * and shown the moment it arrives, not when the slowest colleague finishes. Failures are returned once the others
 * have settled, so everything that succeeded is kept; the caller decides whether the council goes on without them.
 */
export async function speakInCycle(
  seats: readonly Seat[],
  cycle: number,
  log: SessionLog,
  deps: CouncilDeps,
  record: Recorder,
): Promise<readonly SeatFailure[]> {
  const previous = debateRecords(log.snapshot).filter(r => r.cycle < cycle);
  let recorded: Promise<void> = Promise.resolve();
  const failures: SeatFailure[] = [];
  await Promise.all(
    seats.map(seat =>
      attempt(seat, cycle, previous, log, deps, deps.token).then(outcome => {
        // One event at a time, in arrival order: each record persists the session.
        recorded = recorded.then(() =>
          outcome.ok ? recordOutcome(outcome, deps, record) : void failures.push({ seat, error: outcome.error }),
        );
        return recorded;
      }),
    ),
  );
  await recorded;
  return failures;
}

/** Each persona's stance in `cycle`, as they stated it themselves. */
export function cyclePositions(log: SessionLog, cycle: number) {
  const discussion = log.snapshot.context.discussions.find(d => d.cycleNumber === cycle && d.status === 'in_progress');
  const turnIds = new Set(discussion?.messageTurnIds ?? []);
  return log.snapshot.context.messageTurns.flatMap(turn =>
    turn.messageType === 'discussion' && turnIds.has(turn.turnId)
      ? [
          {
            personaId: turn.senderId,
            position: turn.position,
            changedPosition: turn.changedPosition,
            changeReason: turn.changeReason,
          },
        ]
      : [],
  );
}

/** Starts cycle `cycleNumber` with `seats` unless one is in progress; returns the cycle in progress. */
export async function openCycle(log: SessionLog, seats: readonly Seat[], deps: CouncilDeps, record: Recorder) {
  const current = findCurrentDiscussion(log.snapshot.context);
  if (current) return current;
  const cycleNumber = log.snapshot.context.debateCycles + 1;
  await record({
    type: 'CYCLE_STARTED',
    discussionId: deps.ids.next(),
    cycleNumber,
    personaIds: seats.map(s => s.participantId),
    topic: cycleNumber === 1 ? 'Independent drafts' : `Responses to the positions of cycle ${cycleNumber - 1}`,
    at: deps.clock.now(),
  });
  const opened = findCurrentDiscussion(log.snapshot.context);
  if (!opened) throw new Error('The debate cycle could not be started.');
  return opened;
}

/** The personas' names, for the progress lines. */
export function namesOf(seats: readonly Seat[]): string[] {
  return seats.map(s => s.persona.name);
}

/** A seat that did not speak in a cycle, and why (in the words the answer uses). */
export interface Absence {
  readonly seat: Seat;
  readonly reason: string;
  readonly error?: unknown;
}

/** Why a seat did not speak, in the words the answer uses. */
function absenceReason(error: unknown): string {
  if (error instanceof LanguageModelFailure && error.kind === 'budgetSpent')
    return 'its request was refused by the spending limit';
  const message = error instanceof Error ? error.message : String(error);
  return `its request failed (${message.replace(/\s+/g, ' ').slice(0, 160)})`;
}

/**
 * The seats whose own request failed, as absences: the council goes on without them. A failure every later request
 * would meet too (`stopsTheTurn`) is thrown instead: what succeeded is kept, and Try again goes on.
 */
export function absencesOf(failures: readonly SeatFailure[]): Absence[] {
  const turnWide = failures.find(f => stopsTheTurn(f.error));
  if (turnWide) throw turnWide.error;
  return failures.map(f => ({ seat: f.seat, reason: absenceReason(f.error), error: f.error }));
}

/**
 * Nobody spoke in the cycle in progress: there is nothing to conclude from. Throws the first failure (Try again runs
 * the cycle again) or, when the limit left room for nobody, the governor's shortfall.
 */
export function requireAContribution(
  log: SessionLog,
  absent: readonly Absence[],
  cycle: number,
  deps: CouncilDeps,
): void {
  const current = findCurrentDiscussion(log.snapshot.context);
  if (current && spokenPersonaIds(log.snapshot.context, current).size > 0) return;
  const failed = absent.find(a => a.error !== undefined);
  if (failed) throw failed.error;
  if (deps.governor) throw deps.governor.shortfall(1 + 1, `a draft of debate cycle ${cycle} and the answer`);
  throw new Error(`No persona spoke in debate cycle ${cycle}.`);
}

/** The `absent` field of CYCLE_CONCLUDED: the seats recorded as absent, if any. */
export function absentField(absent: readonly Absence[]): {
  absent?: { personaId: string; reason: string }[];
} {
  return absent.length > 0 ? { absent: absent.map(a => ({ personaId: a.seat.participantId, reason: a.reason })) } : {};
}

/** Tells the user who did not speak in the cycle that just ended and that the council goes on without them. */
export function showAbsent(deps: CouncilDeps, absent: readonly Absence[], seated: number): void {
  if (absent.length === 0) return;
  showVisibly(
    deps.output,
    absentNotice(
      absent.map(a => ({ name: a.seat.persona.name, reason: a.reason })),
      seated,
    ),
  );
}
