import { PromptElement, TextChunk, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { Confidence } from './replies';
import { WRITE_ANSWER_TASK } from './answerTask';
import { DATA_NOTICE, dataBlock } from '../../llm/prompting/dataBlock';
import { councilStandingChunks } from './debateRecord';
import type { ClarifiedRequest, DebateCycleRecord, PersonaBrief } from './promptData';
import { precedentMessage } from './precedentMessage';
import { clarifiedRequestChunks, councilBlock } from './requestContext';

/** A persona's answer given without debate. */
export interface AttributedConclusion {
  readonly persona: string;
  readonly conclusion: string;
  readonly confidence: Confidence;
}

/** What the council produced before synthesis: a debate, or direct conclusions when there was none. */
export type CouncilDeliberation =
  | {
      readonly kind: 'debate';
      readonly cycles: readonly DebateCycleRecord[];
      readonly stop: 'converged' | 'limit' | 'budget' | 'stable';
    }
  | { readonly kind: 'conclusions'; readonly conclusions: readonly AttributedConclusion[] };

/** Props of {@link SynthesisPrompt}. */
export interface SynthesisPromptProps extends BasePromptElementProps, ClarifiedRequest {
  readonly personas: readonly PersonaBrief[];
  readonly deliberation: CouncilDeliberation;
}

const ROLE = `You write the council's one consolidated answer to the user's request, from what the council of expert personas concluded. Your reply is shown to the user as you write it.`;

const RULES = `How to write it:
- Start with the recommendation in the first sentence: what the user should do. Then the key reasons and trade-offs, briefly.
- Represent the council faithfully: where they agreed, say so once; where they still disagree in a way that would change what the user does, say who holds which position (names exactly as listed among the council members; no one else).
- Keep every key point that decides the question, a minority's included: a fact one persona raised is not dropped because the others outvoted it; say whose it is when the others disagree.
- Say which assumptions the recommendation rests on, so the user can correct them.
- End with three to six concrete next steps as a numbered list, most important first.
- Use short paragraphs and lists, no headings, no tables, no JSON, no tool calls. Do not list every persona's final position or the assumption log: Council adds both below your text.
Do not mention the mechanics of the debate (cycles, moderators, tools, budgets); write for the user.`;

function deliberationChunks(deliberation: CouncilDeliberation): readonly unknown[] {
  if (deliberation.kind === 'conclusions') {
    const blocks = deliberation.conclusions.map(c =>
      dataBlock('conclusion', c.conclusion, { persona: c.persona, confidence: c.confidence }),
    );
    return [<TextChunk>{"The personas' conclusions:\n\n" + blocks.join('')}</TextChunk>];
  }
  const note =
    deliberation.stop === 'limit'
      ? 'The debate stopped at its cycle limit without full agreement.'
      : deliberation.stop === 'budget'
        ? 'The debate stopped early, without full agreement, to stay within the request budget.'
        : deliberation.stop === 'stable'
          ? 'The debate stopped because no persona moved its vote or position in the last cycle; the disagreement that remains is real.'
          : 'The debate ended because the council converged.';
  return [
    <TextChunk>{`${note} Where the debate ended, then where each persona stands:\n\n`}</TextChunk>,
    ...councilStandingChunks(deliberation.cycles),
  ];
}

/** The council's consolidated answer; reply: Markdown prose, streamed to the user. */
export class SynthesisPrompt extends PromptElement<SynthesisPromptProps> {
  render() {
    return (
      <>
        <UserMessage priority={1_000}>{`${ROLE}\n\n${RULES}\n\n${DATA_NOTICE}`}</UserMessage>
        <UserMessage priority={900} flexGrow={2}>
          <TextChunk priority={400}>{'The council members:\n\n' + councilBlock(this.props.personas, false)}</TextChunk>
          {clarifiedRequestChunks(this.props)}
        </UserMessage>
        {precedentMessage(this.props.precedent)}
        <UserMessage priority={500} flexGrow={1} flexReserve="/3">
          {deliberationChunks(this.props.deliberation)}
        </UserMessage>
        <UserMessage priority={1_000}>{WRITE_ANSWER_TASK}</UserMessage>
      </>
    );
  }
}
