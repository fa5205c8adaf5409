import { renderMessages } from '../llm/prompting/render';
import { ClarifyPrompt } from './prompts/clarifyPrompt';
import type { CancellationSignal, LanguageModel } from '../llm/languageModel';
import { requestStructured } from '../llm/structuredOutput';
import type { ClarifiedRequest, PersonaBrief } from './prompts/promptData';
import { clarificationRoundLimit } from '../session/limits';
import type { ClarificationQuestion } from '../session/clarification';
import type { AssumptionDraft, QuestionDraft } from '../session/events';
import { ProposedQuestionsSchema, type ProposedQuestion } from './prompts/replies';
import { questionsNormalizer } from './replyNormalizers';
import type { CouncilDeps } from './ports';
import type { SessionLog } from './sessionLog';
import { clarifiedRequest, councilSeats } from './sessionFacts';

/** Input of {@link requestQuestions}: one clarification round for a council already chosen. */
export interface QuestionsRequest {
  readonly context: ClarifiedRequest;
  /** The council's personas. */
  readonly personas: readonly PersonaBrief[];
  /** 1-based clarification round. */
  readonly round: number;
  readonly maxRounds: number;
  /** Every question already put to the user, answered or skipped. */
  readonly askedQuestions: readonly string[];
  readonly model: LanguageModel;
  readonly token: CancellationSignal;
  readonly onNormalized?: (step: string, changes: readonly string[]) => void;
}

/**
 * One propose_clarifying_questions request: the questions ranked by impact (highest first), empty when
 * nothing needs clarifying. Throws CancelledError / LanguageModelFailure from the model.
 */
export async function requestQuestions(input: QuestionsRequest): Promise<ProposedQuestion[]> {
  const { context, personas, round, maxRounds, askedQuestions, model, token } = input;
  const shape = {
    schema: ProposedQuestionsSchema,
    name: 'propose_clarifying_questions',
    description: 'Propose the clarifying questions to ask the user before the council debates, highest impact first.',
  };
  const { messages } = await renderMessages(
    ClarifyPrompt,
    { ...context, personas, round, maxRounds, askedQuestions },
    model,
    token,
    { reply: shape },
  );
  const reply = await requestStructured(
    model,
    {
      ...shape,
      normalize: questionsNormalizer(askedQuestions),
      onNormalized: changes => input.onNormalized?.('propose_clarifying_questions', changes),
      messages,
    },
    token,
  );
  return reply.needsClarification ? reply.questions : [];
}

/** Asks the model for the next round's questions, ranked by impact; empty when nothing needs clarifying. */
export async function proposeQuestions(log: SessionLog, deps: CouncilDeps): Promise<QuestionDraft[]> {
  const snapshot = log.snapshot;
  const seats = councilSeats(snapshot, deps.personas);
  const questions = await requestQuestions({
    context: clarifiedRequest(snapshot),
    personas: seats.map(s => s.persona),
    round: snapshot.context.clarificationRounds + 1,
    maxRounds: clarificationRoundLimit(snapshot.context.limits),
    askedQuestions: snapshot.context.questions.map(q => q.question),
    model: deps.model,
    token: deps.token,
    onNormalized: deps.onNormalized,
  });
  return questions.map(q => ({
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
