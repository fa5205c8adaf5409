import { PromptElement, TextChunk, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import { DATA_NOTICE, dataBlock } from '../../llm/prompting/dataBlock';
import type { ClarifiedRequest, PersonaBrief } from './promptData';
import { clarifiedRequestChunks, councilBlock } from './requestContext';

/** Props of {@link ClarifyPrompt}. */
export interface ClarifyPromptProps extends BasePromptElementProps, ClarifiedRequest {
  /** The personas selected for this request. */
  readonly personas: readonly PersonaBrief[];
  /** 1-based clarification round (at most 3). */
  readonly round: number;
  readonly maxRounds?: number;
  /** Every question already put to the user, answered or skipped. */
  readonly askedQuestions: readonly string[];
}

const ROLE = `You prepare a council of expert personas to answer a user's request. Before the council debates, you find what is ambiguous in the request and would change the council's advice, and propose clarifying questions for the user.`;

/** How the clarify step chooses its questions; shared with the opening prompt. */
export const CLARIFY_RULES = `How to choose questions:
- Ask only what changes the advice. If any reasonable answer leads to the same recommendation, do not ask.
- Do not ask what the request, the answers or the assumptions already settle, and never repeat or rephrase an already asked question.
- One question per ambiguity, about one thing, answerable in a sentence. Write it to the user, plainly, without preamble.
- For each question give a recommendedAnswer: the concrete answer you would assume if the user skips it.
- Rate impact from 1 to 5 and list the questions highest impact first; at most 5.
- Draw on the council members' expertise: ask what they would need to know.
- If nothing important is ambiguous, set needsClarification to false and return no questions. That is a good outcome, not a failure.`;

/** Which clarification round this is (later rounds ask for more selectivity); shared with the opening prompt. */
export function clarificationRoundNote(round: number, maxRounds: number): string {
  return round <= 1
    ? `This is clarification round 1 of at most ${maxRounds}.`
    : `This is clarification round ${round} of at most ${maxRounds}. The user has already answered or skipped earlier questions, so be more selective: only ask questions with impact 3 or more that are still open.`;
}

/** Asks the model which clarifying questions to put to the user; reply: ProposedQuestions. */
export class ClarifyPrompt extends PromptElement<ClarifyPromptProps> {
  render() {
    const { round, askedQuestions, personas } = this.props;
    const roundNote = clarificationRoundNote(round, this.props.maxRounds ?? 3);
    const asked = askedQuestions.length === 0 ? '(none)' : askedQuestions.map(q => `- ${q}`).join('\n');
    return (
      <>
        <UserMessage priority={1_000}>{`${ROLE}\n\n${CLARIFY_RULES}\n\n${DATA_NOTICE}`}</UserMessage>
        <UserMessage priority={900} flexGrow={2}>
          <TextChunk priority={400}>{'The council members:\n\n' + councilBlock(personas)}</TextChunk>
          {clarifiedRequestChunks(this.props)}
          <TextChunk priority={50}>
            {'Questions already asked (do not ask them again):\n\n' + dataBlock('asked_questions', asked)}
          </TextChunk>
        </UserMessage>
        <UserMessage priority={1_000}>
          {`${roundNote} Propose the clarifying questions now, or say that no clarification is needed.`}
        </UserMessage>
      </>
    );
  }
}
