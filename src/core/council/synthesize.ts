import { ConclusionPrompt } from './prompts/conclusionPrompt';
import { renderMessages } from '../llm/prompting/render';
import { SynthesisPrompt, type AttributedConclusion, type CouncilDeliberation } from './prompts/synthesisPrompt';
import { LanguageModelFailure, type LanguageModel } from '../llm/languageModel';
import { remainingRequests } from './debatePlan';
import { requestStructured } from '../llm/structuredOutput';
import { streamText } from '../llm/textReply';
import { currentFinalRun } from '../session/turns';
import { canExtend } from '../session/selectors';
import { AnswerStream } from './answerStream';
import { personaModel } from './debate';
import {
  answerAppendix,
  ANSWER_HEADING,
  budgetStopNotice,
  stableVoteNotice,
  limitReachedNotice,
  modelNote,
  NO_REQUEST_FOR_ANSWER,
  NO_WRITTEN_ANSWER,
  type SessionSpend,
} from './wording/markdown';
import { voteTally } from './councilVote';
import { concluding, WRITING_ANSWER } from './wording/progressText';
import { showVisibly, type CouncilDeps } from './ports';
import { PersonaConclusionSchema, type Confidence } from './prompts/replies';
import type { Recorder, SessionLog } from './sessionLog';
import { clarifiedRequest, councilSeats, debateRecords, voiceOf, type Seat } from './sessionFacts';

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
          usage: deps.usage,
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
  await streamText(model, messages, deps.token, deps.usage, chunk => show(answer.push(chunk)));
  show(answer.end());
  if (shown.trim() !== '') return shown.trim();
  // A model that wrote nothing still leaves the user an answer: what the council itself said.
  deps.output.markdown(NO_WRITTEN_ANSWER);
  return NO_WRITTEN_ANSWER;
}

/**
 * Writes the council's one consolidated answer and completes the session. The model writes only the prose,
 * streamed as it arrives; who was on the council, where each persona landed, what is still contested and the
 * assumptions come from the session. Without a request left in the budget, the answer is built from the
 * session alone, and says so.
 */
export async function concludeCouncil(log: SessionLog, deps: CouncilDeps, record: Recorder): Promise<void> {
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
  if (deliberation.kind === 'debate' && deliberation.stop === 'limit') {
    showVisibly(
      deps.output,
      limitReachedNotice(log.snapshot, extendable, log.snapshot.context.limits.adminMaxDebateCycles),
    );
  }
  if (deliberation.kind === 'debate' && deliberation.stop === 'budget')
    showVisibly(deps.output, budgetStopNotice(log.snapshot, spendOf(log, deps)));
  if (deliberation.kind === 'debate' && deliberation.stop === 'stable')
    showVisibly(deps.output, stableVoteNotice(records.at(-1)?.cycle ?? 0));
  showVisibly(deps.output, `\n\n${ANSWER_HEADING}\n\n`);
  let prose: string;
  try {
    if (!canWrite) throw deps.governor!.shortfall(1, 'the written answer');
    prose = await streamAnswer(log, seats, deliberation, deps);
  } catch (error) {
    if (!(error instanceof LanguageModelFailure && error.kind === 'budgetSpent')) throw error;
    // The limit leaves no written answer: the user still reads where the council stands, then (from the
    // failure) what was spent and how to get the written answer; the session stays in its final step.
    showVisibly(
      deps.output,
      `\n\n${NO_REQUEST_FOR_ANSWER}\n\n${answerAppendix(log.snapshot, spendOf(log, deps), voteTally(records))}\n`,
    );
    throw error;
  }
  const appendix = answerAppendix(log.snapshot, spendOf(log, deps), voteTally(records));
  showVisibly(deps.output, `\n\n${appendix}\n`);
  await record({
    type: 'FINAL_ANSWER_READY',
    finalAnswer: `${ANSWER_HEADING}\n\n${prose}\n\n${appendix}`,
    at: deps.clock.now(),
  });
}
