import type { z } from 'zod';
import { DebateTurnPrompt } from '../../prompts/debateTurnPrompt';
import { ModeratorPrompt } from '../../prompts/moderatorPrompt';
import { renderMessages } from '../../prompts/render';
import { CancellationScope } from '../llm/cancellationScope';
import { throwIfCancelled, type CancellationSignal } from '../llm/languageModel';
import { requestStructured } from '../llm/structuredOutput';
import { findCurrentDiscussion, spokenPersonaIds } from '../session/queries';
import { effectiveCycleLimit } from '../session/selectors';
import type { DebateCycleRecord } from '../../prompts/promptData';
import { contributionBlock, cycleSummary, moderatorNote } from './markdown';
import { showVisibly, type CouncilDeps } from './ports';
import { stanceProblem } from '../session/stance';
import { contributionReplySchema, CycleVerdictSchema, type CycleVerdict, type PersonaContribution } from './replies';
import { contributionNormalizer, verdictNormalizer, type SpeakerTerms } from './replyNormalizers';
import type { SessionLog } from './sessionLog';
import { citedFiles, groundingApplies, groundInWorkspace } from './workspaceGrounding';
import { clarifiedRequest, contributionMetadata, councilSeats, debateRecords, voiceOf, type Seat } from './sessionFacts';

/** One persona's attempt in a cycle. */
type Outcome =
  | { readonly seat: Seat; readonly ok: true; readonly contribution: PersonaContribution; readonly cited: readonly string[] }
  | { readonly seat: Seat; readonly ok: false; readonly error: unknown };

/** What the session knows when `seat` speaks in `cycle`: its colleagues and its previous position. */
function speakerTerms(seat: Seat, cycle: number, previous: readonly DebateCycleRecord[], log: SessionLog, deps: CouncilDeps): SpeakerTerms {
  const self = seat.persona.name;
  const colleagues = councilSeats(log.snapshot, deps.personas).map(s => s.persona.name).filter(name => name !== self);
  const previousPosition = previous.find(r => r.cycle === cycle - 1)?.contributions.find(c => c.persona === self)?.position;
  return { cycle, self, colleagues, previousPosition };
}

/** The contribution schema sent for these terms, plus the session's stance rule as a last check before repair. */
function contributionSchema(terms: SpeakerTerms): z.ZodType<PersonaContribution> {
  return contributionReplySchema(terms).superRefine((contribution, ctx) => {
    const problem = stanceProblem(contribution);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, path: ['changeReason'] });
  });
}

/** Asks one persona for its contribution to `cycle`; `cited`: the workspace files it read and names. */
async function contribute(seat: Seat, cycle: number, previous: readonly DebateCycleRecord[], log: SessionLog, deps: CouncilDeps, token: CancellationSignal): Promise<{ contribution: PersonaContribution; cited: string[] }> {
  const { messages } = await renderMessages(
    DebateTurnPrompt,
    { ...clarifiedRequest(log.snapshot), persona: voiceOf(seat.persona), cycle, previousCycles: previous },
    deps.model,
    token,
  );
  // Looking things up first is opt-in (attached context or the setting), bounded, and read-only.
  const grounded = groundingApplies(deps.workspace, log.attached.length)
    ? await groundInWorkspace(deps.model, messages, deps.workspace, token, deps.usage)
    : { messages, read: [] };
  const terms = speakerTerms(seat, cycle, previous, log, deps);
  const contribution = await requestStructured(
    deps.model,
    {
      schema: contributionSchema(terms),
      normalize: contributionNormalizer(terms),
      onNormalized: changes => deps.onNormalized?.(`contribute_to_debate (${seat.persona.name}, cycle ${cycle})`, changes),
      name: 'contribute_to_debate',
      description: `${seat.persona.name}'s contribution to debate cycle ${cycle}.`,
      messages: grounded.messages,
      usage: deps.usage,
    },
    token,
  );
  return { contribution, cited: citedFiles(contribution.argument, grounded.read) };
}

/** Every seat speaks in parallel, so a cycle costs about one model round-trip; failures are returned, not thrown. */
function contributeAll(seats: readonly Seat[], cycle: number, previous: readonly DebateCycleRecord[], log: SessionLog, deps: CouncilDeps, token: CancellationSignal): Promise<Outcome[]> {
  return Promise.all(
    seats.map(seat =>
      contribute(seat, cycle, previous, log, deps, token).then(
        ({ contribution, cited }): Outcome => ({ seat, ok: true, contribution, cited }),
        (error: unknown): Outcome => ({ seat, ok: false, error }),
      ),
    ),
  );
}

async function moderate(log: SessionLog, deps: CouncilDeps): Promise<CycleVerdict> {
  const snapshot = log.snapshot;
  const { messages } = await renderMessages(
    ModeratorPrompt,
    {
      ...clarifiedRequest(snapshot),
      personas: councilSeats(snapshot, deps.personas).map(s => s.persona),
      cycles: debateRecords(snapshot),
      maxCycles: effectiveCycleLimit(snapshot),
    },
    deps.model,
    deps.token,
  );
  return requestStructured(
    deps.model,
    {
      schema: CycleVerdictSchema,
      normalize: verdictNormalizer,
      onNormalized: changes => deps.onNormalized?.('moderate_cycle', changes),
      name: 'moderate_cycle',
      description: 'Record where the debate stands after the latest cycle.',
      messages,
      usage: deps.usage,
    },
    deps.token,
  );
}

function listNames(seats: readonly Seat[]): string {
  const names = seats.map(s => s.persona.name);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Records the successful contributions (shown as they are recorded) and rethrows the first failure. */
async function recordOutcomes(outcomes: readonly Outcome[], cycle: number, deps: CouncilDeps, record: Recorder): Promise<void> {
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    const { contribution, seat } = outcome;
    await record({
      type: 'PERSONA_SPOKE',
      turn: {
        senderId: seat.participantId,
        content: contribution.argument,
        position: contribution.position,
        changedPosition: contribution.changedPosition,
        changeReason: contribution.changeReason,
        timestamp: deps.clock.now(),
        metadata: contributionMetadata(contribution),
      },
    });
    deps.output.markdown(contributionBlock(seat.persona.name, cycle, contribution));
    // Links only for recorded contributions, beside their text (a discarded draft never shows any).
    for (const path of outcome.cited) deps.output.anchor?.(path);
  }
  const failure = outcomes.find(o => !o.ok);
  if (failure && !failure.ok) throw failure.error;
}

/** Each persona's stance in `cycle`, as they stated it themselves (authoritative over the moderator's paraphrase). */
function cyclePositions(log: SessionLog, cycle: number) {
  const discussion = log.snapshot.context.discussions.find(d => d.cycleNumber === cycle && d.status === 'in_progress');
  const turnIds = new Set(discussion?.messageTurnIds ?? []);
  return log.snapshot.context.messageTurns.flatMap(turn =>
    turn.messageType === 'discussion' && turnIds.has(turn.turnId)
      ? [{ personaId: turn.senderId, position: turn.position, changedPosition: turn.changedPosition, changeReason: turn.changeReason }]
      : [],
  );
}

/** Whether every persona said it agrees with every other one in this cycle. */
function unanimous(record: DebateCycleRecord | undefined, seats: readonly Seat[]): boolean {
  if (!record || seats.length < 2) return false;
  const names = seats.map(s => s.persona.name.toLowerCase());
  return record.contributions.every(c => {
    const agreed = new Set(c.agreesWith.map(n => n.trim().toLowerCase()));
    return names.every(n => n === c.persona.toLowerCase() || agreed.has(n));
  });
}

/** Records an event (and persists the session). */
export type Recorder = (event: Parameters<SessionLog['apply']>[0]) => Promise<void>;

/**
 * Runs debate cycles until the council converges or the cycle limit stops it.
 * While the moderator judges cycle N, cycle N+1's contributions are already being drafted
 * (they answer cycle N's contributions, which are final); if the moderator stops the debate,
 * that speculative work is cancelled and never shown or recorded.
 */
export async function runDebate(log: SessionLog, deps: CouncilDeps, record: Recorder): Promise<void> {
  let ahead: { readonly cycle: number; readonly outcomes: Promise<Outcome[]>; readonly scope: CancellationScope } | undefined;
  try {
    while (log.state === 'debating') {
      throwIfCancelled(deps.token);
      const seats = councilSeats(log.snapshot, deps.personas);
      let discussion = findCurrentDiscussion(log.snapshot.context);
      if (!discussion) {
        const cycleNumber = log.snapshot.context.debateCycles + 1;
        await record({
          type: 'CYCLE_STARTED',
          discussionId: deps.ids.next(),
          cycleNumber,
          personaIds: seats.map(s => s.participantId),
          topic: cycleNumber === 1 ? 'Independent drafts' : `Responses to the positions of cycle ${cycleNumber - 1}`,
          at: deps.clock.now(),
        });
        discussion = findCurrentDiscussion(log.snapshot.context);
      }
      if (!discussion) throw new Error('The debate cycle could not be started.');
      const cycle = discussion.cycleNumber;
      const limit = effectiveCycleLimit(log.snapshot);
      const spoken = spokenPersonaIds(log.snapshot.context, discussion);
      const waiting = seats.filter(s => !spoken.has(s.participantId));
      if (waiting.length > 0) {
        deps.output.progress(`Debate cycle ${cycle} of at most ${limit}: ${listNames(waiting)} ${waiting.length === 1 ? 'is' : 'are'} thinking…`);
        const outcomes = ahead?.cycle === cycle && waiting.length === seats.length
          ? await ahead.outcomes
          : await contributeAll(waiting, cycle, debateRecords(log.snapshot).filter(r => r.cycle < cycle), log, deps, deps.token);
        ahead = undefined;
        await recordOutcomes(outcomes, cycle, deps, record);
      }
      // Draft the next cycle while the moderator reads this one, unless the personas already agree
      // with each other explicitly (then the moderator will very likely stop, and the drafts would be wasted).
      if (cycle < limit && !unanimous(debateRecords(log.snapshot).find(r => r.cycle === cycle), seats)) {
        const scope = new CancellationScope(deps.token);
        const records = debateRecords(log.snapshot);
        ahead = { cycle: cycle + 1, scope, outcomes: contributeAll(seats, cycle + 1, records, log, deps, scope) };
      }
      deps.output.progress(`Moderator is reading cycle ${cycle}…`);
      const verdict = await moderate(log, deps);
      const summary = verdict.openDisagreements.length > 0
        ? `${verdict.resolutionSummary}\nStill open: ${verdict.openDisagreements.join(' ')}`
        : verdict.resolutionSummary;
      await record({
        type: 'CYCLE_CONCLUDED',
        resolutionSummary: summary,
        positions: cyclePositions(log, cycle),
        converged: verdict.converged,
        at: deps.clock.now(),
      });
      deps.output.markdown(moderatorNote(cycle, verdict.resolutionSummary, verdict.converged));
      // The full contributions stay in the folded steps; this compact line per cycle stays in sight.
      const concluded = debateRecords(log.snapshot).find(r => r.cycle === cycle);
      if (concluded) showVisibly(deps.output, cycleSummary(concluded, verdict.openDisagreements, verdict.converged));
      if (log.state !== 'debating' && ahead) {
        ahead.scope.cancel();
        ahead.outcomes.catch(() => undefined);
        ahead = undefined;
      }
    }
  } finally {
    if (ahead) {
      ahead.scope.cancel();
      ahead.outcomes.catch(() => undefined);
    }
  }
}
