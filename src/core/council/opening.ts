import { ActionableError } from '../actionableError';
import { z } from 'zod';
import {
  LanguageModelFailure,
  throwIfCancelled,
  type CancellationSignal,
  type LanguageModel,
} from '../llm/languageModel';
import { requestStructured, type ReplyNormalizer } from '../llm/structuredOutput';
import { renderMessages } from '../llm/prompting/render';
import { OpeningPrompt } from './prompts/openingPrompt';
import type { PersonaContract } from '../personas/contract';
import {
  fallbackSelection,
  MIN_PANEL,
  panelLimit,
  selectionFromReply,
  selectionReplySchema,
  selectionWithoutModel,
  selectPersonas,
  type PersonaSelection,
  type SelectionDefaults,
} from '../personas/select';
import { selectionNormalizer } from '../personas/selectionNormalizer';
import type { AttachedItem } from '../session/attachedItem';
import { requestQuestions } from './clarify';
import { byImpact, proposedQuestionsFields, type ProposedQuestion, type TargetAmbiguity } from './prompts/replies';
import { composedNormalizer, questionsNormalizer } from './replyNormalizers';

/** Name of the request that selects the council and proposes round 1's questions at once. */
export const OPEN_SESSION = 'open_session';

/** Input of {@link openSession}. */
export interface OpeningInput {
  readonly request: string;
  /** Context the user attached, already bounded for the session (the questions may need all of it). */
  readonly attached: readonly AttachedItem[];
  /** The registry's personas. */
  readonly personas: readonly PersonaContract[];
  readonly model: LanguageModel;
  readonly token: CancellationSignal;
  readonly defaults?: SelectionDefaults;
  /** Clarification rounds the session allows; the opening proposes round 1's questions. Below 1: no questions. */
  readonly maxRounds: number;
  /** Receives what the normalizer changed in an accepted reply, with the request's name. */
  readonly onNormalized?: (step: string, changes: readonly string[]) => void;
}

/** A round-1 clarifying question, highest impact first; the caller gives it an id and an author. */
export interface OpeningQuestion {
  readonly question: string;
  readonly targetAmbiguity: TargetAmbiguity;
  readonly recommendedAnswer?: string;
}

/** What opening a session settles: who sits on the council, and what to ask the user first (empty: nothing). */
export interface Opening {
  readonly selection: PersonaSelection;
  readonly questions: OpeningQuestion[];
}

/**
 * The open_session reply, built per request like selectionReplySchema (ids an enum of the known ones,
 * each once, MIN_PANEL..maxPersonas of them) followed by the clarify reply's fields for round 1, in the
 * order the model should decide them: the council first, then its questions (sorted by impact on parse).
 */
export function openingReplySchema(knownIds: readonly [string, ...string[]], maxPersonas: number) {
  return z
    .object({ ...selectionReplySchema(knownIds, maxPersonas).shape, ...proposedQuestionsFields })
    .transform(byImpact);
}

function openingQuestion(question: ProposedQuestion): OpeningQuestion {
  return {
    question: question.question,
    targetAmbiguity: question.targetAmbiguity,
    recommendedAnswer: question.recommendedAnswer,
  };
}

/**
 * Opens a council session with ONE model request where today's flow makes two.
 *
 * - The user named personas (see explicitPersonaNames), or MIN_PANEL or fewer are available: the council
 *   is settled without the model (exactly as selectPersonas settles it), so the one request is
 *   propose_clarifying_questions for that fixed council (ClarifyPrompt, round 1).
 * - Otherwise one open_session request (OpeningPrompt, openingReplySchema) classifies the request, chooses
 *   the council and proposes the questions those personas need answered; the selection and questions
 *   normalizers both run on it before validation.
 * - That reply still malformed after the repairs: its selection part is kept if it alone is valid, else
 *   the user's default personas take part (as in selectPersonas; without defaults the failure is thrown);
 *   either way there are no questions.
 * - `maxRounds` below 1 (no clarification): only the selection, i.e. selectPersonas (one request or none).
 *
 * Throws CancelledError / LanguageModelFailure from the model (a refusal is never replaced by defaults),
 * and an Error when no persona is available at all.
 */
export async function openSession(input: OpeningInput): Promise<Opening> {
  const { request, attached, personas, model, token, defaults, maxRounds } = input;
  throwIfCancelled(token);
  if (maxRounds < 1) {
    return {
      selection: await selectPersonas({ request, attached, personas, model, token, defaults }),
      questions: [],
    };
  }

  const preset = selectionWithoutModel(request, personas);
  if (preset) {
    const questions = await requestQuestions({
      context: { request, answers: [], assumptions: [], ...(attached.length > 0 ? { attached } : {}) },
      personas: preset.personas,
      round: 1,
      maxRounds,
      askedQuestions: [],
      model,
      token,
      onNormalized: input.onNormalized,
    });
    return { selection: preset, questions: questions.map(openingQuestion) };
  }

  const [first, ...rest] = personas.map(p => p.id);
  // selectionWithoutModel settles every council of MIN_PANEL or fewer personas, so there is a first id.
  if (first === undefined)
    throw new ActionableError(
      'No council personas are available: fix the persona files named in the warnings above (or restore the built-in ones), then press Try again.',
    );
  const ids: [string, ...string[]] = [first, ...rest];
  const maxPersonas = panelLimit(personas);
  const reply = {
    schema: openingReplySchema(ids, maxPersonas),
    name: OPEN_SESSION,
    description:
      'Classify the request, choose the council personas who should debate it, then propose the clarifying questions they need answered, highest impact first.',
  };
  const { messages } = await renderMessages(
    OpeningPrompt,
    { request, personas, minPersonas: MIN_PANEL, maxPersonas, maxRounds, ...(attached.length > 0 ? { attached } : {}) },
    model,
    token,
    { reply },
  );
  let lastReply: unknown;
  const normalize = composedNormalizer(selectionNormalizer(personas), questionsNormalizer([]));
  const remember: ReplyNormalizer = (reply, note) => (lastReply = normalize(reply, note));
  try {
    const opened = await requestStructured(
      model,
      {
        ...reply,
        normalize: remember,
        onNormalized: changes => input.onNormalized?.(OPEN_SESSION, changes),
        messages,
      },
      token,
    );
    return {
      selection: selectionFromReply(personas, opened),
      questions: opened.needsClarification ? opened.questions.map(openingQuestion) : [],
    };
  } catch (error) {
    const salvaged =
      error instanceof LanguageModelFailure && error.kind === 'malformedReply'
        ? selectionReplySchema(ids, maxPersonas).safeParse(lastReply)
        : undefined;
    if (salvaged?.success) return { selection: selectionFromReply(personas, salvaged.data), questions: [] };
    return { selection: fallbackSelection(personas, defaults, error), questions: [] };
  }
}
