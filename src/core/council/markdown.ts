import type { FinalSynthesis, PersonaContribution } from './replies';
import type { DebateCycleRecord } from '../../prompts/promptData';
import type { Assumption, ClarificationQuestion } from '../session/clarification';
import type { SessionSnapshot } from '../session/machine';
import { activeAssumptions, effectiveCycleLimit, pendingQuestions } from '../session/selectors';

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

/** The active clarifying question, alone, with its recommended answer. */
export function questionCard(snapshot: SessionSnapshot, question: ClarificationQuestion): string {
  const remaining = pendingQuestions(snapshot).length;
  const { limits } = snapshot.context;
  // The session's round, not the question's: after "more questions" an earlier round's question may still be open.
  const round = Math.max(snapshot.context.clarificationRounds, question.roundNumber);
  const header = `**Clarifying question** · round ${round} of at most ${limits.maxClarificationRounds} · ${untrusted(question.targetAmbiguity)}`;
  const left = remaining > 1 ? `\n\n_${remaining - 1} more question${remaining - 1 === 1 ? '' : 's'} after this one._` : '';
  const recommended = question.recommendedAnswer
    ? `\n\n**Recommended answer:** ${untrusted(question.recommendedAnswer)}`
    : '';
  return `${header}\n\n${quote(question.question)}${recommended}\n\nReply with your answer, or use a button below.${left}\n`;
}

/** One persona's contribution in one cycle, under its name. */
export function contributionBlock(name: string, cycle: number, contribution: PersonaContribution): string {
  const changed = contribution.changedPosition && contribution.changeReason
    ? `\n\n_Changed position: ${untrusted(contribution.changeReason)}_`
    : '';
  const concerns = contribution.concerns.length > 0
    ? `\n\n**Concerns:**\n${contribution.concerns.map(c => `- ${untrusted(c)}`).join('\n')}`
    : '';
  return `\n#### ${untrusted(name)} · cycle ${cycle}\n\n**Position:** ${untrusted(contribution.position)}\n\n${untrusted(contribution.argument)}${changed}${concerns}\n`;
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
  const state = converged ? ' Converged.' : open.length > 0 ? ` Still contested: ${open.map(o => brief(o, 120)).join('; ')}` : '';
  return `\n**Cycle ${record.cycle}:**${moved}${state}\n\n${positions}\n`;
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
export function assumptionList(snapshot: SessionSnapshot, assumptions: readonly Assumption[] = activeAssumptions(snapshot)): string {
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

/** The council's persona names, by their loose spelling (case and spacing ignored). */
function councilNames(snapshot: SessionSnapshot): Map<string, string> {
  const key = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();
  const names = snapshot.context.participants.filter(p => p.type === 'persona').map(p => p.name);
  return new Map(names.map(name => [key(name), name]));
}

/** The council member a model-written name stands for, or undefined for a name not on the council. */
function onCouncil(council: ReadonlyMap<string, string>, name: string): string | undefined {
  return council.get(name.trim().replace(/\s+/g, ' ').toLowerCase());
}

/**
 * The consolidated final answer: recommendation, each persona's conclusion, open disagreements, assumptions,
 * next steps. Persona names come from the session's council, never from the model: an entry for anyone
 * else is not shown.
 */
export function finalAnswerMarkdown(snapshot: SessionSnapshot, synthesis: FinalSynthesis): string {
  const council = councilNames(snapshot);
  const conclusions = [...council.values()]
    .flatMap(name => {
      const found = synthesis.personaConclusions.find(c => onCouncil(council, c.persona) === name);
      return found ? [`- **${untrusted(name)}:** ${untrusted(found.conclusion)}`] : [];
    })
    .join('\n');
  const disagreements = synthesis.disagreements.flatMap(d => {
    const positions = d.positions.flatMap(p => {
      const name = onCouncil(council, p.persona);
      return name === undefined ? [] : [`  - ${untrusted(name)}: ${untrusted(p.position)}`];
    });
    return positions.length < 2 ? [] : [`- **${untrusted(d.topic)}**\n${positions.join('\n')}`];
  });
  const steps = synthesis.nextSteps.map((s, i) => `${i + 1}. ${untrusted(s)}`).join('\n');
  return [
    `## The council's answer`,
    untrusted(synthesis.recommendation),
    `### Where each persona landed`,
    conclusions || '_No persona conclusions were recorded._',
    `### Disagreements left open`,
    disagreements.length === 0 ? '_None: the council agrees._' : disagreements.join('\n'),
    `### Assumptions`,
    assumptionList(snapshot),
    ...(steps ? [`### Next steps`, steps] : []),
  ].join('\n\n');
}
