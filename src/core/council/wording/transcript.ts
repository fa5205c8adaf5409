import type { LedgerLine } from '../../llm/spending/ledger';
import { ledgerMarkdown } from '../../llm/spending/spendText';
import { forecastText, type ForecastFigure } from '../../llm/spending/forecastText';
import type { PersonaContract } from '../../personas/contract';
import type { SessionSnapshot } from '../../session/machine';
import { activeQuestion, effectiveCycleLimit } from '../../session/selectors';
import { assumptionList, spendLine, untrusted, type SessionSpend } from './markdown';

const STATE_LABEL: Readonly<Record<SessionSnapshot['value'], string>> = {
  created: 'starting',
  clarifying: 'asking clarifying questions',
  debating: 'debating',
  final: 'writing the final answer',
  completed: 'completed',
  cancelled: 'cancelled',
};

function personaNames(snapshot: SessionSnapshot): string {
  return (
    snapshot.context.participants
      .filter(p => p.type === 'persona')
      .map(p => p.name)
      .join(', ') || '_not chosen yet_'
  );
}

/** `/status`: where the session stands and what the user can do next. */
export function statusMarkdown(
  snapshot: SessionSnapshot,
  spend?: SessionSpend,
  /** The debate still ahead (debateForecast.ts), when there is one. */
  ahead?: { readonly expected: ForecastFigure; readonly bound: ForecastFigure },
): string {
  const c = snapshot.context;
  const question = activeQuestion(snapshot);
  return (
    [
      `**Session status:** ${STATE_LABEL[snapshot.value]}`,
      `- Request: ${untrusted(c.requestText).replace(/\n/g, ' ')}`,
      `- Council: ${personaNames(snapshot)}`,
      `- Clarification rounds: ${c.clarificationRounds} of at most ${c.limits.maxClarificationRounds}`,
      `- Debate cycles: ${c.debateCycles} of at most ${effectiveCycleLimit(snapshot)}${c.extendedDebateRequested ? ' (extended)' : ''}`,
      `- Assumptions: ${c.assumptionLog.filter(a => !a.withdrawal).length}`,
      ...(spend ? [`- Spent: ${spendLine(spend)}`] : []),
      ...(ahead ? [`- Debate still ahead: ${forecastText(ahead.expected, ahead.bound, 'more request')}`] : []),
      ...(question ? [`- Open question: ${untrusted(question.question)}`] : []),
      ...(spend?.ledger?.length
        ? [`\n**Spending by persona and step** (estimated)\n\n${ledgerMarkdown(spend.ledger)}`]
        : []),
    ].join('\n') + '\n'
  );
}

/** `/personas`: this session's council (if any), every persona available, and how to choose them. */
export function personasMarkdown(snapshot: SessionSnapshot | undefined, personas: readonly PersonaContract[]): string {
  const council = snapshot
    ? snapshot.context.participants
        .filter(p => p.type === 'persona')
        .map(p => `**${untrusted(p.name)}**`)
        .join(', ')
    : '';
  const catalog = personas
    .map(
      p =>
        `- **${untrusted(p.name)}** (\`${p.id}\`${p.origin === 'workspace' ? ', workspace' : ''}): ${untrusted(p.role)}`,
    )
    .join('\n');
  return (
    `${council ? `This session's council: ${council}.\n\n` : ''}Available personas:\n\n${catalog}\n\n` +
    'To choose the council yourself, name them at the start of a request, e.g. `@council with Security Expert, Software Architect: should we use JWTs?`, or run **Council: Select Personas**.'
  );
}

/** `/assumptions`: the assumption log so far. */
export function assumptionsMarkdown(snapshot: SessionSnapshot): string {
  return `**Assumption log**\n\n${assumptionList(snapshot)}\n`;
}

/** The whole session as a Markdown document: turns, assumptions and final answer. */
export function transcriptMarkdown(snapshot: SessionSnapshot, ledger: readonly LedgerLine[] = []): string {
  const c = snapshot.context;
  const nameOf = new Map(c.participants.map(p => [p.participantId, p.name]));
  const questionText = new Map(c.questions.map(q => [q.questionId, q.question]));
  const answerText = new Map(c.answers.map(a => [a.answerId, a.answer]));
  const assumptionText = new Map(c.assumptionLog.map(a => [a.assumptionId, a.assumption]));
  const turns = c.messageTurns.map(turn => {
    switch (turn.messageType) {
      case 'question':
        return `**Question** (round ${turn.relatedCycleOrRound.number}): ${untrusted(questionText.get(turn.questionId) ?? turn.content)}`;
      case 'answer':
        return `**Answer:** ${untrusted(answerText.get(turn.answerId) ?? turn.content)}`;
      case 'assumption_statement':
        return `**Assumption:** ${untrusted(assumptionText.get(turn.assumptionId) ?? turn.content)}`;
      case 'discussion': {
        // The model, when the persona spoke on another than the chat's (models per role).
        const model = typeof turn.metadata?.model === 'string' ? `, on ${untrusted(turn.metadata.model)}` : '';
        return `**${untrusted(nameOf.get(turn.senderId) ?? turn.senderId)}** (cycle ${turn.relatedCycleOrRound.number}${model}) — _${untrusted(turn.position)}_\n\n${untrusted(turn.content)}`;
      }
      case 'conclusion':
        return `**${untrusted(nameOf.get(turn.senderId) ?? turn.senderId)}** concludes: ${untrusted(turn.content)}`;
    }
  });
  const summaries = c.discussions.flatMap(d =>
    d.status === 'in_progress'
      ? []
      : [
          `- Cycle ${d.cycleNumber} (${d.status.replace('_', ' ')}): ${untrusted(d.resolutionSummary).replace(/\n/g, ' ')}`,
        ],
  );
  return (
    [
      `# Council session ${c.sessionId}`,
      `- Started: ${c.createdAt}\n- Status: ${STATE_LABEL[snapshot.value]}\n- Council: ${personaNames(snapshot)}`,
      `## Request\n\n${untrusted(c.requestText)}`,
      `## Turns\n\n${turns.join('\n\n') || '_None yet._'}`,
      ...(summaries.length ? [`## Debate cycles\n\n${summaries.join('\n')}`] : []),
      `## Assumptions\n\n${assumptionList(snapshot)}`,
      `## Final answer\n\n${c.finalAnswer ?? '_Not reached yet._'}`,
      ...(ledger.length ? [`## Spending (estimated)\n\n${ledgerMarkdown(ledger)}`] : []),
    ].join('\n\n') + '\n'
  );
}
