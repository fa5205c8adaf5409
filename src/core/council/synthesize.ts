import { ConclusionPrompt } from '../../prompts/conclusionPrompt';
import { renderMessages } from '../../prompts/render';
import { SynthesisPrompt, type AttributedConclusion, type CouncilDeliberation } from '../../prompts/synthesisPrompt';
import { requestStructured } from '../llm/structuredOutput';
import { currentFinalRun } from '../session/turns';
import { canExtend } from '../session/selectors';
import { finalAnswerMarkdown, limitReachedNotice } from './markdown';
import { showVisibly, type CouncilDeps } from './ports';
import { PersonaConclusionSchema, synthesisReplySchema, type Confidence, type FinalSynthesis } from './replies';
import { synthesisNormalizer } from './replyNormalizers';
import type { Recorder } from './debate';
import type { SessionLog } from './sessionLog';
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
async function gatherConclusions(seats: readonly Seat[], log: SessionLog, deps: CouncilDeps, record: Recorder): Promise<AttributedConclusion[]> {
  const done = recordedConclusions(log);
  const confidence = new Map<string, Confidence>();
  const waiting = seats.filter(s => !done.has(s.participantId));
  if (waiting.length > 0) {
    deps.output.progress(`${waiting.map(s => s.persona.name).join(', ')} ${waiting.length === 1 ? 'is' : 'are'} concluding…`);
  }
  const outcomes = await Promise.allSettled(
    waiting.map(async seat => {
      const { messages } = await renderMessages(ConclusionPrompt, { ...clarifiedRequest(log.snapshot), persona: voiceOf(seat.persona) }, deps.model, deps.token);
      const reply = await requestStructured(
        deps.model,
        { schema: PersonaConclusionSchema, name: 'give_conclusion', description: `${seat.persona.name}'s direct answer.`, messages, usage: deps.usage },
        deps.token,
      );
      return { seat, reply };
    }),
  );
  for (const outcome of outcomes) {
    if (outcome.status !== 'fulfilled') continue;
    const { seat, reply } = outcome.value;
    confidence.set(seat.participantId, reply.confidence);
    await record({
      type: 'CONCLUSION_RECORDED',
      turn: { senderId: seat.participantId, content: reply.conclusion, position: firstSentence(reply.conclusion), changedPosition: false, timestamp: deps.clock.now(), metadata: { confidence: reply.confidence } },
    });
  }
  const failed = outcomes.find(o => o.status === 'rejected');
  if (failed && failed.status === 'rejected') throw failed.reason;
  const all = recordedConclusions(log);
  const confidenceOf = (id: string): Confidence => {
    const turn = currentFinalRun(log.snapshot.context.messageTurns).find(t => t.messageType === 'conclusion' && t.senderId === id);
    const value = turn?.metadata?.confidence;
    return value === 'high' || value === 'low' ? value : 'medium';
  };
  return seats.map(s => ({ persona: s.persona.name, conclusion: all.get(s.participantId) ?? '', confidence: confidenceOf(s.participantId) }));
}

/** After a debate, the synthesis states each persona's conclusion; recorded as `conclusion` turns. */
async function recordSynthesisConclusions(seats: readonly Seat[], synthesis: FinalSynthesis, log: SessionLog, deps: CouncilDeps, record: Recorder): Promise<void> {
  const done = recordedConclusions(log);
  for (const seat of seats) {
    if (done.has(seat.participantId)) continue;
    const found = synthesis.personaConclusions.find(c => c.persona.trim().toLowerCase() === seat.persona.name.toLowerCase());
    if (!found) continue;
    await record({
      type: 'CONCLUSION_RECORDED',
      turn: { senderId: seat.participantId, content: found.conclusion, position: firstSentence(found.conclusion), changedPosition: false, timestamp: deps.clock.now() },
    });
  }
}

/** What the session knows a persona concluded: its direct conclusion, else its last debate position (derive, don't ask). */
function knownConclusion(deliberation: CouncilDeliberation): (persona: string) => string {
  return persona => {
    const said = deliberation.kind === 'conclusions'
      ? deliberation.conclusions.find(c => c.persona === persona)?.conclusion
      : deliberation.cycles.flatMap(r => r.contributions).filter(c => c.persona === persona).at(-1)?.position;
    return said !== undefined && said.trim() !== '' ? firstSentence(said) : 'No conclusion was recorded.';
  };
}

/** Writes the council's one consolidated answer and completes the session. */
export async function concludeCouncil(log: SessionLog, deps: CouncilDeps, record: Recorder): Promise<void> {
  const seats = councilSeats(log.snapshot, deps.personas);
  const records = debateRecords(log.snapshot);
  const lastDiscussion = log.snapshot.context.discussions.at(-1);
  const deliberation: CouncilDeliberation = records.length === 0
    ? { kind: 'conclusions', conclusions: await gatherConclusions(seats, log, deps, record) }
    : { kind: 'debate', cycles: records, limitReached: lastDiscussion?.status === 'limit_reached' };
  deps.output.progress('Writing the consolidated answer…');
  const { messages } = await renderMessages(
    SynthesisPrompt,
    { ...clarifiedRequest(log.snapshot), personas: seats.map(s => s.persona), deliberation },
    deps.model,
    deps.token,
  );
  const council = seats.map(s => s.persona.name);
  const synthesis = await requestStructured(
    deps.model,
    {
      schema: synthesisReplySchema(council),
      normalize: synthesisNormalizer(council, knownConclusion(deliberation)),
      onNormalized: changes => deps.onNormalized?.('write_final_answer', changes),
      name: 'write_final_answer',
      description: "The council's consolidated answer to the user.",
      messages,
      usage: deps.usage,
    },
    deps.token,
  );
  if (deliberation.kind === 'debate') await recordSynthesisConclusions(seats, synthesis, log, deps, record);
  const answer = finalAnswerMarkdown(log.snapshot, synthesis);
  const extendable = canExtend(log.snapshot);
  await record({ type: 'FINAL_ANSWER_READY', finalAnswer: answer, at: deps.clock.now() });
  // Shown after the turn's last progress line, so the chat view keeps it unfolded.
  if (deliberation.kind === 'debate' && deliberation.limitReached) {
    showVisibly(deps.output, limitReachedNotice(log.snapshot, extendable, log.snapshot.context.limits.adminMaxDebateCycles));
  }
  showVisibly(deps.output, `\n\n${answer}\n`);
}
