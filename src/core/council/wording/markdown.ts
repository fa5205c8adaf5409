import type { VoteTally } from '../councilVote';
import { optionVoteLines, type sessionOptionVote } from '../optionVote';
import type { SpendingLimits } from '../../llm/spending/governor';
import type { LedgerLine, SpendTotals } from '../../llm/spending/ledger';
import { limitText, spendBrief, spendSummary } from '../../llm/spending/spendText';
import type { DebateEstimate } from '../debatePlan';
import { forecastText, type ForecastFigure } from '../../llm/spending/forecastText';
import type { DebateProtocol } from '../protocol';
import type { PersonaContribution } from '../prompts/replies';
import type { DebateCycleRecord } from '../prompts/promptData';
import type { Assumption, ClarificationQuestion } from '../../session/clarification';
import type { SessionSnapshot } from '../../session/machine';
import { currentFinalRun } from '../../session/turns';
import { questionPosition } from '../questionPosition';
import { activeAssumptions, effectiveCycleLimit } from '../../session/selectors';
import type { LimitAdvice } from '../../llm/spending/limitAdvice';
import { outlookWords, type DebateOutlook } from '../../session/debateOutlook';

/*
 * Everything the council shows the user, as Markdown. Model output is untrusted: the chat view renders
 * Markdown without HTML, and headings in it are demoted so they cannot pose as the council's sections.
 */

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^(\s{0,3})#{1,6}\s+(.*)$/;

/** Model or user text made safe to embed: headings outside code blocks become bold text; code is left as written. */
export function untrusted(text: string): string {
  let fence: string | undefined;
  return text
    .split('\n')
    .map(line => {
      const marker = FENCE.exec(line)?.[1];
      if (marker && (fence === undefined || marker.startsWith(fence))) {
        fence = fence === undefined ? marker : undefined;
        return line;
      }
      return fence === undefined ? line.replace(HEADING, '$1**$2**') : line;
    })
    .join('\n')
    .trim();
}

function quote(text: string): string {
  return untrusted(text)
    .split('\n')
    .map(line => `> ${line}`)
    .join('\n');
}

/** The active clarifying question, alone, with its recommended answer, as the chat shows it (its buttons below). */
export function questionCard(snapshot: SessionSnapshot, question: ClarificationQuestion): string {
  const { round, maxRounds, left: after } = questionPosition(snapshot, question);
  const header = `**Clarifying question** · round ${round} of at most ${maxRounds} · ${untrusted(question.targetAmbiguity)}`;
  const left = after > 0 ? `\n\n_${after} more question${after === 1 ? '' : 's'} after this one._` : '';
  const recommended = question.recommendedAnswer
    ? `\n\n**Recommended answer:** ${untrusted(question.recommendedAnswer)}`
    : '';
  return `${header}\n\n${quote(question.question)}${recommended}\n\nReply with your answer, or use a button below.${left}\n`;
}

/** What a contribution block shows: the stance, the argument, a change of position and the concerns left. */
export type ShownContribution = Pick<
  PersonaContribution,
  'position' | 'argument' | 'changedPosition' | 'changeReason'
> & {
  readonly concerns: readonly string[];
};

/** One persona's contribution in one cycle, under its name. */
export function contributionBlock(
  name: string,
  cycle: number,
  contribution: ShownContribution,
  model?: string,
): string {
  const changed =
    contribution.changedPosition && contribution.changeReason
      ? `\n\n_Changed position: ${untrusted(contribution.changeReason)}_`
      : '';
  const concerns =
    contribution.concerns.length > 0
      ? `\n\n**Concerns:**\n${contribution.concerns.map(c => `- ${untrusted(c)}`).join('\n')}`
      : '';
  const on = model ? ` · ${untrusted(model)}` : '';
  return `\n#### ${untrusted(name)} · cycle ${cycle}${on}\n\n**Position:** ${untrusted(contribution.position)}\n\n${untrusted(contribution.argument)}${changed}${concerns}\n`;
}

/** The moderator's reading after a cycle. */
export function moderatorNote(cycle: number, summary: string, converged: boolean): string {
  const verdict = converged ? ' The council has converged.' : '';
  return `\n> **Moderator, after cycle ${cycle}:** ${untrusted(summary).replace(/\n/g, ' ')}${verdict}\n`;
}

/** A stance shortened to one line for the cycle summary. */
function brief(text: string, max = 160): string {
  const flat = untrusted(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * One debated cycle in a few lines, from the session (no model call): who holds which position, who changed
 * it, what is still contested. Shown outside the folded steps, where the full contributions stay.
 */
export function cycleSummary(record: DebateCycleRecord, open: readonly string[], converged: boolean): string {
  const positions = record.contributions
    .map(c => `- **${untrusted(c.persona)}:** ${brief(c.position)}${c.changedPosition ? ' _(changed position)_' : ''}`)
    .join('\n');
  const changed = record.contributions.filter(c => c.changedPosition).map(c => untrusted(c.persona));
  const moved = changed.length > 0 ? ` Changed position: ${changed.join(', ')}.` : '';
  const state = converged
    ? ' Converged.'
    : open.length > 0
      ? ` Still contested: ${open.map(o => brief(o, 120)).join('; ')}`
      : '';
  return `\n**Cycle ${record.cycle}:**${moved}${state}\n\n${positions}\n`;
}

/** Who did not speak in a cycle and why: the council goes on without them, and says so. */
export function absentNotice(
  absent: readonly { readonly name: string; readonly reason: string }[],
  seats: number,
): string {
  const answered = seats - absent.length;
  const who = absent.map(a => `${untrusted(a.name)}: ${untrusted(a.reason)}`).join('; ');
  return `\n_${answered} of ${seats} personas answered in this cycle; the council goes on without the others (${who})._\n`;
}

/** The notice that agreeing first drafts settled the decision: no debate cycle was paid for. */
export function firstVoteNotice(backers: number, option: string, seats: number): string {
  const who = backers < seats ? `All ${backers} personas who answered (of ${seats})` : `All ${backers} personas`;
  return `\n_${who} back ${untrusted(option)} with high or medium confidence: no debate needed. \`/extend\` debates anyway._\n`;
}

/**
 * Who did not take part, for the answer: "3 of 4 personas answered; the Security Expert's draft failed (…)". A persona
 * absent only from a later cycle keeps its earlier position, and the line says so. Undefined when everyone answered.
 */
export function degradedLine(snapshot: SessionSnapshot): string | undefined {
  const c = snapshot.context;
  const nameOf = new Map(c.participants.map(p => [p.participantId, p.name]));
  const seats = c.participants.filter(p => p.type === 'persona').length;
  const spoke = new Set(c.messageTurns.filter(t => t.messageType === 'discussion').map(t => t.senderId));
  const notes: string[] = [];
  const never = new Set<string>();
  for (const d of c.discussions) {
    if (d.status === 'in_progress') continue;
    for (const a of d.absent ?? []) {
      const name = untrusted(nameOf.get(a.personaId) ?? a.personaId);
      if (!spoke.has(a.personaId)) {
        if (never.has(a.personaId)) continue;
        never.add(a.personaId);
        notes.push(`the ${name}'s draft did not arrive: ${untrusted(a.reason)}`);
      } else
        notes.push(
          `the ${name}'s reply in cycle ${d.cycleNumber} did not arrive (${untrusted(a.reason)}); its earlier position stands`,
        );
    }
  }
  if (notes.length === 0) return undefined;
  return `_${seats - never.size} of ${seats} personas answered; ${notes.join('; ')}._`;
}

/** The answer when its own request failed: built from the vote and where each persona stands, marked as such. */
export function answerFromVote(reason: string, leading: string | undefined, confidence: string | undefined): string {
  const head = `_Written from the vote; the answer's own request failed: ${untrusted(reason).replace(/\s+/g, ' ')} Press **Try again** (\`/retry\`) to write it in full._`;
  const decision = leading
    ? `\n\n**The council backs ${untrusted(leading)}.**${confidence ? ` ${untrusted(confidence)}` : ''}`
    : confidence
      ? `\n\n${untrusted(confidence)}`
      : '';
  return `${head}${decision}\n\nWhere each persona stands, the vote and the assumptions follow, from the council's own statements.`;
}

/** The explicit notice that the debate stopped at its cycle limit (FR-019). */
export function limitReachedNotice(snapshot: SessionSnapshot, extendable: boolean, adminMax: number): string {
  const limit = effectiveCycleLimit(snapshot);
  const extend = extendable
    ? ` Use **Extend the debate** to allow up to ${adminMax} cycles.`
    : ' This is the maximum your settings allow (`council.debate.adminMaxCycles`).';
  return `\n**⚠ Debate limit reached:** the council debated for ${limit} cycle${limit === 1 ? '' : 's'} without fully converging. The answer below records the disagreements that remain.${extend}\n`;
}

/** The assumption log as a Markdown list. */
export function assumptionList(
  snapshot: SessionSnapshot,
  assumptions: readonly Assumption[] = activeAssumptions(snapshot),
): string {
  if (assumptions.length === 0) {
    return snapshot.context.questions.length === 0
      ? '_None: no clarifying questions were needed._'
      : '_None: every question asked was answered._';
  }
  const questionText = new Map(snapshot.context.questions.map(q => [q.questionId, q.question]));
  return assumptions
    .map(a => {
      const question = a.relatedQuestionId ? questionText.get(a.relatedQuestionId) : undefined;
      const about = question ? ` _(for: ${untrusted(question)})_` : '';
      return `- ${untrusted(a.assumption)}${about}. ${untrusted(a.rationale)}`;
    })
    .join('\n');
}

/** The heading the final answer starts under. */
export const ANSWER_HEADING = "## The council's answer";

/**
 * The notice that the spending limit ended the debate before the council agreed; `forecast`: the debate's latest
 * forecast sentence (limitNotes.ts), when there is one; `advice`: how this door raises the session's limits.
 */
export function budgetStopNotice(
  snapshot: SessionSnapshot,
  spend: SessionSpend,
  advice: LimitAdvice,
  forecast?: string,
): string {
  const cycles = snapshot.context.debateCycles;
  const { maxCredits, maxRequests } = spend.limits ?? {};
  const raise = [
    maxCredits === undefined ? undefined : advice.raise('sessionCredits'),
    maxRequests === undefined ? undefined : advice.raise('sessionRequests'),
  ].filter(clause => clause !== undefined);
  const longer = raise.length > 0 ? ` To let the council debate longer, ${raise.join(' or ')}, and ask again.` : '';
  return `\n**⚠ Spending limit reached:** the council stopped after ${cycles} debate cycle${cycles === 1 ? '' : 's'} without full agreement: another cycle of two personas or more, plus the answer, did not fit in what is left of its ${limitText(spend.limits ?? {})} (spent so far: ${spendBrief(spend.totals)}).${forecast ? ` ${forecast}` : ''} The answer below is written from where the council stands and records what is still contested.${longer}\n`;
}

/** The notice that the debate stopped because nobody moved: the disagreement left is the council's real one. */
export function stableVoteNotice(cycle: number): string {
  return `\n_The debate stopped after cycle ${cycle}: no persona changed its vote or its position, so another cycle would repeat it. The vote and the dissent are below the answer._\n`;
}

/** What the session spent and may spend, for the answer's footer and `/status`. */
export interface SessionSpend {
  readonly totals: SpendTotals;
  /** The session's limits; absent: none. */
  readonly limits?: SpendingLimits;
  /** Who spent what, for `/status` (absent: totals only). */
  readonly ledger?: readonly LedgerLine[];
}

/** "12 requests · 31k tokens (28k in, 2.6k out) · about 15 AI credits (limit 40 credits, 12 requests)". */
export function spendLine(spend: SessionSpend): string {
  return `${spendSummary(spend.totals)} (${limitText(spend.limits ?? {})})`;
}

/**
 * What follows the model's prose in the final answer, all from the session: where each persona landed (its own
 * last statement), what was still contested when the debate stopped, the assumptions, and what it cost.
 */
export function answerAppendix(
  snapshot: SessionSnapshot,
  spend: SessionSpend,
  tally?: VoteTally,
  optionVote?: OptionVote,
): string {
  const c = snapshot.context;
  const nameOf = new Map(c.participants.map(p => [p.participantId, p.name]));
  const lastFinal = currentFinalRun(c.messageTurns).filter(t => t.messageType === 'conclusion');
  const personas = c.participants.filter(p => p.type === 'persona');
  const landed = personas.flatMap(p => {
    const said = lastFinal.filter(t => t.senderId === p.participantId).at(-1);
    return said ? [`- **${untrusted(p.name)}:** ${untrusted(said.content).replace(/\n+/g, ' ')}`] : [];
  });
  const last = c.discussions.at(-1);
  const open =
    last && last.status !== 'in_progress' && !last.converged
      ? untrusted(last.resolutionSummary).replace(/\n+/g, ' ')
      : undefined;
  const cycles = c.debateCycles;
  const models = modelsLine(spend.ledger ?? []);
  const footer = `_Council: ${personas.map(p => untrusted(nameOf.get(p.participantId) ?? p.name)).join(', ')} · ${cycles} debate cycle${cycles === 1 ? '' : 's'} · ${spendLine(spend)}.${models ? ` ${models}` : ''}_`;
  // Said every time, so a reader (or an agent) can tell "nothing contested" from "not reported".
  const contested = open
    ? ['### Still contested when the debate stopped', open]
    : last && last.status !== 'in_progress' && last.converged
      ? ['### Nothing left contested', 'Every persona agreed with the others when the debate ended.']
      : [];
  return [
    '### Where each persona landed',
    landed.join('\n') || '_No persona conclusions were recorded._',
    ...(optionVote
      ? ['### The vote', optionVoteMarkdown(optionVote)]
      : tally
        ? ['### The vote', voteMarkdown(tally)]
        : []),
    ...contested,
    '### Assumptions',
    assumptionList(snapshot),
    footer,
  ].join('\n\n');
}

/** The option vote of a session (see optionVote.ts's sessionOptionVote). */
type OptionVote = NonNullable<ReturnType<typeof sessionOptionVote>>;

/** The option vote as the answer reports it: each option with its voters and their confidence, and who dissents. */
function optionVoteMarkdown(vote: OptionVote): string {
  const { rows, dissent } = optionVoteLines(vote);
  const total = vote.standing.ballots.length;
  const lines = rows.map(
    r => `- **${untrusted(r.option)}** (${r.voters.length} of ${total}): ${r.voters.map(untrusted).join(', ')}`,
  );
  const outcome =
    vote.standing.leading === undefined
      ? 'No option leads.'
      : dissent.length === 0
        ? 'No one dissents.'
        : `Dissent: ${dissent.map(untrusted).join('; ')}.`;
  return [...lines, '', outcome].join('\n');
}

/** The option vote in one sentence (the agent tool's result): "Vote: 3 of 3 back option 2 (…): A (high), …; dissent: none." */
export function optionVoteSentence(vote: OptionVote | undefined): string | undefined {
  if (!vote) return undefined;
  const { rows, dissent } = optionVoteLines(vote);
  const total = vote.standing.ballots.length;
  const [first] = rows;
  if (!first) return undefined;
  const head =
    vote.standing.leading === undefined
      ? `Vote: no option leads; ${rows.map(r => `${r.voters.length} for ${r.option}`).join(', ')}`
      : `Vote: ${first.voters.length} of ${total} back ${first.option}: ${first.voters.join(', ')}`;
  return `${head}; dissent: ${dissent.length === 0 ? 'none' : dissent.join('; ')}.`;
}

/** The vote as the answer reports it: each position with its voters and their confidence, and who dissents. */
function voteMarkdown(tally: VoteTally): string {
  const confidence = new Map(tally.ballots.map(b => [b.voter, b.confidence]));
  const voter = (name: string) => {
    const sure = confidence.get(name);
    return `${untrusted(name)}${sure ? ` (${sure})` : ''}`;
  };
  const rows = tally.counts.map(
    ({ holder, position, voters }) =>
      `- **${untrusted(holder)}'s position** (${voters.length} of ${tally.ballots.length}): ${untrusted(position).replace(/\n+/g, ' ')} — ${voters.map(voter).join(', ')}`,
  );
  const outcome =
    tally.leader === undefined
      ? 'The vote is tied.'
      : tally.dissent.length === 0
        ? 'No one dissents.'
        : `Dissent: ${tally.dissent.map(voter).join(', ')}.`;
  return [...rows, '', outcome].join('\n');
}

/** The vote in one sentence (the agent tool's result): "3 of 4 back Ana's position (high, high, medium); dissent: Bo (low)." */
export function voteSentence(tally: VoteTally | undefined): string {
  if (!tally) return 'Vote: none (the personas answered without a debate cycle that votes).';
  const confidence = new Map(tally.ballots.map(b => [b.voter, b.confidence]));
  const sure = (names: readonly string[]) => names.map(n => confidence.get(n) ?? 'not stated').join(', ');
  const leading = tally.counts[0];
  if (!leading) return 'Vote: none.';
  const head =
    tally.leader === undefined
      ? `Vote: tied, ${tally.counts.map(c => `${c.voters.length} for ${c.holder}'s position (confidence ${sure(c.voters)})`).join(', ')}`
      : `Vote: ${leading.voters.length} of ${tally.ballots.length} back ${leading.holder}'s position (confidence ${sure(leading.voters)})`;
  const dissent =
    tally.dissent.length === 0
      ? 'dissent: none'
      : `dissent: ${tally.dissent.map(n => `${n} (${confidence.get(n) ?? 'not stated'})`).join(', ')}`;
  return `${head}; ${dissent}.`;
}

/** "Models: Security Expert on GPT-5 mini, Architect on Claude Sonnet 4.6, …" when more than one model was used. */
function modelsLine(ledger: readonly LedgerLine[]): string | undefined {
  if (new Set(ledger.map(line => line.model)).size < 2) return undefined;
  const byWho = new Map<string, Set<string>>();
  for (const line of ledger) byWho.set(line.who, (byWho.get(line.who) ?? new Set()).add(line.model));
  const who = [...byWho].map(([name, used]) => `${untrusted(name)} on ${[...used].map(untrusted).join(' and ')}`);
  return `Models: ${who.join(', ')}.`;
}

/** A note about the model a role runs on (e.g. a preferred model is not available). */
export function modelNote(note: string): string {
  return `_${note}_\n\n`;
}

/** "More questions" found nothing new to ask. */
export const NO_FURTHER_QUESTIONS = '_The council has no further questions._\n\n';

/** The answer when the model wrote nothing: the appendix still says where the council stands. */
export const NO_WRITTEN_ANSWER =
  '_The model wrote no consolidated text; this is where the council stands, from its own statements._';

/** What the debate expects to spend, by part (see debatePlan's `estimateDebate`), and both figures (debateForecast.ts). */
export type DebateForecast = DebateEstimate & {
  readonly protocol: DebateProtocol;
  readonly spend: SessionSpend;
  /** What it will probably spend (see debatePlan's `expectDebate`): requests, tokens (in and out), credits. */
  readonly expected: ForecastFigure;
  /** The most it can spend if nothing fails: requests, tokens (in and out), credits (undefined: price unknown). */
  readonly bound: ForecastFigure;
  /** Most repairs per reply: each reply may take this many more requests if the model answers in the wrong format. */
  readonly repairsPerReply: number;
  /** The drafts back the decision's options: when they agree, the answer follows them at once. */
  readonly votesFirst?: boolean;
  /** The opening's read the expected figure follows (absent: none was given). */
  readonly outlook?: DebateOutlook | undefined;
};

/** The line before the debate: what it expects to spend, from the same rules the debate runs by. */
export function debateForecastNote(forecast: DebateForecast): string {
  const { protocol, drafts, laterCycles, laterCycleCount, answer, spend } = forecast;
  const cycles = `${laterCycleCount} more cycle${laterCycleCount === 1 ? '' : 's'}`;
  const later =
    laterCycleCount === 0
      ? ''
      : protocol === 'thorough'
        ? `, ${laterCycles} for ${cycles} with the moderator's verdicts`
        : `, up to ${laterCycles} for ${cycles} among those still in disagreement`;
  const first =
    protocol === 'thorough'
      ? `${drafts} for the first cycle and its verdict`
      : `${drafts} independent draft${drafts === 1 ? '' : 's'}${forecast.votesFirst ? ` (if they all back one option with high or medium confidence, the answer follows at once: ${drafts + answer} in all)` : ''}`;
  const forAnswer = answer === 1 ? ', 1 for the answer' : '';
  const repairs =
    forecast.repairsPerReply > 0
      ? ` If the model answers in the wrong format, each reply may take up to ${forecast.repairsPerReply} repair requests more, within the limit.`
      : '';
  const read = forecast.outlook
    ? ` The expected figure follows the council's first read: ${outlookWords(forecast.outlook)}.`
    : '';
  return `_This debate expects ${forecastText(forecast.expected, forecast.bound, 'more request')}: ${first}${later}${forAnswer}.${read} So far: ${spendLine(spend)}.${repairs}_\n\n`;
}
