import { ConclusionPrompt } from './prompts/conclusionPrompt';
import { renderMessages } from '../llm/prompting/render';
import { SynthesisPrompt, type AttributedConclusion, type CouncilDeliberation } from './prompts/synthesisPrompt';
import { CancelledError, LanguageModelFailure, type LanguageModel } from '../llm/languageModel';
import { combinedConfidence, optionStanding, sessionOptionVote } from './optionVote';
import { OTHER_OPTION } from '../session/decisionOptions';
import { remainingRequests } from './debatePlan';
import { requestStructured } from '../llm/structuredOutput';
import { streamText } from '../llm/textReply';
import { currentFinalRun } from '../session/turns';
import { canExtend } from '../session/selectors';
import { AnswerStream } from './answerStream';
import { personaModel, stopsTheTurn } from './debate';
import {
  answerAppendix,
  answerFromVote,
  ANSWER_HEADING,
  degradedLine,
  firstVoteNotice,
  untrusted,
  budgetStopNotice,
  stableVoteNotice,
  limitReachedNotice,
  modelNote,
  NO_WRITTEN_ANSWER,
  type SessionSpend,
} from './wording/markdown';
import { voteTally } from './councilVote';
import { precedentStanceText } from './precedentStance';
import { concluding, WRITING_ANSWER } from './wording/progressText';
import { showVisibly, type CouncilDeps } from './ports';
import { PersonaConclusionSchema, type Confidence } from './prompts/replies';
import type { Recorder, SessionLog } from './sessionLog';
import { clarifiedRequest, councilSeats, debateRecords, voiceOf, type Seat } from './sessionFacts';
import { SETTINGS_ADVICE } from '../llm/spending/limitAdvice';

/** Which earlier decision records the council was given, from the session (the prose says whether it agrees). */
function precedentLine(log: SessionLog): string {
  const precedent = log.snapshot.context.precedent;
  return precedent ? `\n\n**Earlier decisions considered:** ${untrusted(precedentStanceText(log.snapshot))}.` : '';
}

/** The first sentence of a conclusion, as the persona's position. */
function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat;
  return sentence.length > 240 ? `${sentence.slice(0, 237)}…` : sentence;
}

/** Conclusions already recorded in this final phase, by participant id. */
function recordedConclusions(log: SessionLog): Map<string, string> {
  const run = currentFinalRun(log.snapshot.context.messageTurns);
  return new Map(run.flatMap(t => (t.messageType === 'conclusion' ? [[t.senderId, t.content] as const] : [])));
}

/** Without a debate, each persona answers directly (in parallel); recorded as `conclusion` turns. */
async function gatherConclusions(
  seats: readonly Seat[],
  log: SessionLog,
  deps: CouncilDeps,
  record: Recorder,
): Promise<AttributedConclusion[]> {
  const done = recordedConclusions(log);
  const waiting = seats.filter(s => !done.has(s.participantId));
  if (waiting.length > 0) {
    deps.output.progress(concluding(waiting.map(s => s.persona.name)));
  }
  const outcomes = await Promise.allSettled(
    waiting.map(async seat => {
      const model = await personaModel(seat, deps);
      const shape = {
        schema: PersonaConclusionSchema,
        name: 'give_conclusion',
        description: `${seat.persona.name}'s direct answer.`,
      };
      const { messages } = await renderMessages(
        ConclusionPrompt,
        { ...clarifiedRequest(log.snapshot), persona: voiceOf(seat.persona) },
        model,
        deps.token,
        { reply: shape },
      );
      const reply = await requestStructured(
        model,
        {
          ...shape,
          messages,
        },
        deps.token,
      );
      return { seat, reply };
    }),
  );
  for (const outcome of outcomes) {
    if (outcome.status !== 'fulfilled') continue;
    const { seat, reply } = outcome.value;
    await record({
      type: 'CONCLUSION_RECORDED',
      turn: {
        senderId: seat.participantId,
        content: reply.conclusion,
        position: firstSentence(reply.conclusion),
        changedPosition: false,
        timestamp: deps.clock.now(),
        metadata: { confidence: reply.confidence },
      },
    });
  }
  const failed = outcomes.find(o => o.status === 'rejected');
  if (failed && failed.status === 'rejected') throw failed.reason;
  const all = recordedConclusions(log);
  const confidenceOf = (id: string): Confidence => {
    const turn = currentFinalRun(log.snapshot.context.messageTurns).find(
      t => t.messageType === 'conclusion' && t.senderId === id,
    );
    const value = turn?.metadata?.confidence;
    return value === 'high' || value === 'low' ? value : 'medium';
  };
  return seats.map(s => ({
    persona: s.persona.name,
    conclusion: all.get(s.participantId) ?? '',
    confidence: confidenceOf(s.participantId),
  }));
}

/** After a debate, each persona's conclusion is its last stated position: the session knows it, no model is asked. */
async function recordDebateConclusions(
  seats: readonly Seat[],
  log: SessionLog,
  deps: CouncilDeps,
  record: Recorder,
): Promise<void> {
  const done = recordedConclusions(log);
  const said = debateRecords(log.snapshot).flatMap(r => r.contributions);
  for (const seat of seats) {
    if (done.has(seat.participantId)) continue;
    const last = said.filter(c => c.persona === seat.persona.name).at(-1);
    if (!last) continue;
    await record({
      type: 'CONCLUSION_RECORDED',
      turn: {
        senderId: seat.participantId,
        content: last.position,
        position: firstSentence(last.position),
        changedPosition: false,
        timestamp: deps.clock.now(),
      },
    });
  }
}

/** What the session has spent and may spend, for the notices and the footer. */
function spendOf(log: SessionLog, deps: CouncilDeps): SessionSpend {
  // The ledger names who ran on which model: the footer says so when more than one ran.
  return { totals: log.spent, limits: deps.spending?.limits, ledger: log.ledger.entries };
}

/** How the debate ended, for the prompt and the notices. */
function debateStop(log: SessionLog): 'converged' | 'limit' | 'budget' | 'stable' {
  const last = log.snapshot.context.discussions.at(-1);
  if (last?.status === 'limit_reached') return 'limit';
  if (last?.status === 'concluded' && last.stoppedByStableVote) return 'stable';
  return last?.status === 'concluded' && last.stoppedByBudget ? 'budget' : 'converged';
}

/** The model that writes the answer: the synthesis setting's, or the chat's. */
async function synthesisModel(deps: CouncilDeps): Promise<LanguageModel> {
  if (!deps.roleModels) return deps.model;
  const choice = await deps.roleModels.forSynthesis();
  if (choice.note) deps.output.markdown(modelNote(choice.note));
  return choice.model;
}

/** Streams the model's answer into the chat as it is written; returns the text as shown. */
async function streamAnswer(
  log: SessionLog,
  seats: readonly Seat[],
  deliberation: CouncilDeliberation,
  deps: CouncilDeps,
): Promise<string> {
  const model = await synthesisModel(deps);
  const { messages } = await renderMessages(
    SynthesisPrompt,
    { ...clarifiedRequest(log.snapshot), personas: seats.map(s => s.persona), deliberation },
    model,
    deps.token,
  );
  const council = new Set(seats.map(s => s.persona.name.toLowerCase()));
  const answer = new AnswerStream(deps.personas.map(p => p.name).filter(name => !council.has(name.toLowerCase())));
  let shown = '';
  const show = (text: string) => {
    if (text === '') return;
    shown += text;
    deps.output.markdown(text);
  };
  await streamText(model, messages, deps.token, chunk => show(answer.push(chunk)));
  show(answer.end());
  if (shown.trim() !== '') return shown.trim();
  // A model that wrote nothing still leaves the user an answer: what the council itself said.
  deps.output.markdown(NO_WRITTEN_ANSWER);
  return NO_WRITTEN_ANSWER;
}

/** The option vote as the answer states it: the leading option, the combined confidence, the strongest dissent. */
interface OptionSummary {
  /** "B (Redis sessions)"; undefined on a split. */
  readonly leading?: string;
  readonly confidence: string;
  /** The strongest dissenting point, verbatim, with who made it. */
  readonly dissent?: string;
  /** Personas backing the leading option (for the first-vote notice). */
  readonly backers: number;
}

function optionSummary(log: SessionLog, seats: readonly Seat[]): OptionSummary | undefined {
  const options = log.snapshot.context.selection?.options;
  if (!options || options.length === 0) return undefined;
  const records = debateRecords(log.snapshot);
  const standing = optionStanding(
    records,
    seats.map(s => s.persona.name),
  );
  if (standing.ballots.length === 0) return undefined;
  const combined = combinedConfidence(standing, options, seats.length);
  const option = options.find(o => o.label === standing.leading);
  const rank = { high: 0, medium: 1, low: 2 } as const;
  // The strongest dissent: the most confident persona not backing the leading option, in its own words.
  const dissenter = standing.ballots
    .filter(b => b.option !== standing.leading)
    .sort((a, b) => rank[a.confidence ?? 'medium'] - rank[b.confidence ?? 'medium'])[0];
  const said = dissenter
    ? records
        .flatMap(r => r.contributions)
        .filter(c => c.persona === dissenter.voter)
        .at(-1)
    : undefined;
  const point = said?.keyPoints[0] ?? said?.position;
  const backs = (label: string) => (label === OTHER_OPTION ? OTHER_OPTION : `option ${label}`);
  return {
    ...(option ? { leading: `option ${option.label} (${option.option})` } : {}),
    confidence: combined.text,
    ...(dissenter && point
      ? {
          dissent: `${dissenter.voter} (backs ${backs(dissenter.option)}, ${dissenter.confidence ?? 'medium'} confidence): "${point}"`,
        }
      : {}),
    backers: standing.ballots.filter(b => b.option === standing.leading).length,
  };
}

/** The lines under the answer's heading, from the session: who did not answer, the combined confidence, the dissent. */
function answerPreface(log: SessionLog, summary: OptionSummary | undefined): string {
  const lines = [
    degradedLine(log.snapshot),
    summary ? `**Combined confidence:** ${untrusted(summary.confidence)}` : undefined,
    summary?.dissent ? `**Strongest dissent:** ${untrusted(summary.dissent)}` : undefined,
  ].filter((line): line is string => line !== undefined);
  return lines.length === 0 ? '' : `${lines.join('\n\n')}\n\n`;
}

/** The answer written from the vote when the answer's own request failed: why it failed, and the answer as shown. */
export interface AnswerFromVote {
  readonly reason: string;
  /** The Markdown the user was shown (marked as written from the vote, with the appendix). */
  readonly answer: string;
}

/**
 * Writes the council's one consolidated answer and completes the session. The model writes only the prose,
 * streamed as it arrives; who was on the council, where each persona landed, what is still contested and the
 * assumptions come from the session. Without a request left in the budget, the answer is built from the
 * session alone, and says so.
 */
export async function concludeCouncil(
  log: SessionLog,
  deps: CouncilDeps,
  record: Recorder,
): Promise<AnswerFromVote | undefined> {
  const seats = councilSeats(log.snapshot, deps.personas);
  const records = debateRecords(log.snapshot);
  const deliberation: CouncilDeliberation =
    records.length === 0
      ? { kind: 'conclusions', conclusions: await gatherConclusions(seats, log, deps, record) }
      : { kind: 'debate', cycles: records, stop: debateStop(log) };
  if (deliberation.kind === 'debate') await recordDebateConclusions(seats, log, deps, record);
  const extendable = canExtend(log.snapshot);
  const canWrite = remainingRequests(deps) >= 1;
  if (canWrite) deps.output.progress(WRITING_ANSWER);
  // No progress line follows: what must be seen is released now, and the answer streams below it, unfolded.
  deps.output.release?.();
  const summary = optionSummary(log, seats);
  const optionVote = sessionOptionVote(
    records,
    log.snapshot.context.selection?.options,
    seats.map(s => s.persona.name),
  );
  const last = log.snapshot.context.discussions.at(-1);
  if (last?.status === 'concluded' && last.settledByFirstVote && summary?.leading)
    showVisibly(deps.output, firstVoteNotice(summary.backers, summary.leading, seats.length));
  if (deliberation.kind === 'debate' && deliberation.stop === 'limit') {
    showVisibly(
      deps.output,
      limitReachedNotice(log.snapshot, extendable, log.snapshot.context.limits.adminMaxDebateCycles),
    );
  }
  if (deliberation.kind === 'debate' && deliberation.stop === 'budget')
    showVisibly(
      deps.output,
      budgetStopNotice(
        log.snapshot,
        spendOf(log, deps),
        deps.governor?.advice ?? SETTINGS_ADVICE,
        deps.governor?.forecast,
      ),
    );
  if (deliberation.kind === 'debate' && deliberation.stop === 'stable')
    showVisibly(deps.output, stableVoteNotice(records.at(-1)?.cycle ?? 0));
  const preface = answerPreface(log, summary);
  showVisibly(deps.output, `\n\n${ANSWER_HEADING}\n\n${preface}`);
  let prose: string;
  try {
    if (!canWrite) throw deps.governor!.shortfall(1, 'the written answer');
    prose = await streamAnswer(log, seats, deliberation, deps);
  } catch (error) {
    if (error instanceof CancelledError || (error instanceof LanguageModelFailure && error.kind === 'cancelled'))
      throw error;
    // The answer's own request failed (a limit, an outage): the user still gets the answer the session holds, from
    // the vote and where each persona stands, marked as such; the session stays in its final step and Try again
    // writes the answer in full.
    const reason = error instanceof Error ? error.message : String(error);
    const answer = `${answerFromVote(reason, summary?.leading, summary?.confidence)}\n\n${answerAppendix(log.snapshot, spendOf(log, deps), voteTally(records), optionVote)}`;
    showVisibly(deps.output, `${answer}\n`);
    // A rate limit or a used-up allowance also gets its own message (what to wait for, what to pick) under it.
    if (stopsTheTurn(error)) throw error;
    return { reason, answer };
  }
  const appendix =
    answerAppendix(log.snapshot, spendOf(log, deps), voteTally(records), optionVote) + precedentLine(log);
  showVisibly(deps.output, `\n\n${appendix}\n`);
  await record({
    type: 'FINAL_ANSWER_READY',
    finalAnswer: `${ANSWER_HEADING}\n\n${preface}${prose}\n\n${appendix}`,
    at: deps.clock.now(),
  });
  return undefined;
}
