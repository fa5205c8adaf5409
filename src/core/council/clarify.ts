import { renderMessages } from '../../prompts/render';
import { ClarifyPrompt } from '../../prompts/clarifyPrompt';
import { requestStructured } from '../llm/structuredOutput';
import { clarificationRoundLimit } from '../session/limits';
import type { ClarificationQuestion } from '../session/clarification';
import type { AssumptionDraft, QuestionDraft } from '../session/events';
import { ProposedQuestionsSchema } from './replies';
import { questionsNormalizer } from './replyNormalizers';
import type { CouncilDeps } from './ports';
import type { SessionLog } from './sessionLog';
import { clarifiedRequest, councilSeats } from './sessionFacts';

/** Asks the model for the next round's questions, ranked by impact; empty when nothing needs clarifying. */
export async function proposeQuestions(log: SessionLog, deps: CouncilDeps): Promise<QuestionDraft[]> {
  const snapshot = log.snapshot;
  const seats = councilSeats(snapshot, deps.personas);
  const round = snapshot.context.clarificationRounds + 1;
  const { messages } = await renderMessages(
    ClarifyPrompt,
    {
      ...clarifiedRequest(snapshot),
      personas: seats.map(s => s.persona),
      round,
      maxRounds: clarificationRoundLimit(snapshot.context.limits),
      askedQuestions: snapshot.context.questions.map(q => q.question),
    },
    deps.model,
    deps.token,
  );
  const reply = await requestStructured(
    deps.model,
    {
      schema: ProposedQuestionsSchema,
      normalize: questionsNormalizer(snapshot.context.questions.map(q => q.question)),
      onNormalized: changes => deps.onNormalized?.('propose_clarifying_questions', changes),
      name: 'propose_clarifying_questions',
      description: 'Propose the clarifying questions to ask the user before the council debates, highest impact first.',
      messages,
      usage: deps.usage,
    },
    deps.token,
  );
  if (!reply.needsClarification) return [];
  return reply.questions.map(q => ({
    questionId: deps.ids.next(),
    question: q.question,
    targetAmbiguity: q.targetAmbiguity,
    askedBy: { kind: 'system' as const },
    recommendedAnswer: q.recommendedAnswer,
  }));
}

/** What the council assumes for a skipped question: its recommended answer, said plainly (no model call needed). */
export function assumptionFor(question: ClarificationQuestion, id: string): AssumptionDraft {
  return {
    assumptionId: id,
    assumption: question.recommendedAnswer
      ? `Assumed: ${question.recommendedAnswer}`
      : `Assumed the most common case for "${question.question}"`,
    rationale: 'The question was skipped, so the council used its recommended default.',
  };
}
