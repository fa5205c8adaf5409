import { PromptElement, TextChunk, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { Confidence } from '../core/council/replies';
import { DATA_NOTICE, dataBlock } from './dataBlock';
import { debateRecordChunks } from './debateRecord';
import type { ClarifiedRequest, DebateCycleRecord, PersonaBrief } from './promptData';
import { clarifiedRequestChunks, councilBlock } from './requestContext';

/** A persona's answer given without debate. */
export interface AttributedConclusion {
  readonly persona: string;
  readonly conclusion: string;
  readonly confidence: Confidence;
}

/** What the council produced before synthesis: a debate, or direct conclusions when there was none. */
export type CouncilDeliberation =
  | { readonly kind: 'debate'; readonly cycles: readonly DebateCycleRecord[]; readonly limitReached: boolean }
  | { readonly kind: 'conclusions'; readonly conclusions: readonly AttributedConclusion[] };

/** Props of {@link SynthesisPrompt}. */
export interface SynthesisPromptProps extends BasePromptElementProps, ClarifiedRequest {
  readonly personas: readonly PersonaBrief[];
  readonly deliberation: CouncilDeliberation;
}

const ROLE = `You write the council's one consolidated answer to the user's request, from what the council of expert personas concluded.`;

const RULES = `How to write it:
- recommendation: answer the request directly in markdown. Lead with what the user should do, then the key reasons and trade-offs. Say which assumptions it rests on, so the user can correct them.
- Represent the council faithfully: where they agreed, say so once; where they did not, do not paper over it.
- personaConclusions: one entry per persona (exact names), their final conclusion in one or two sentences.
- disagreements: only those that remain and would change what the user does, each with the differing positions.
- nextSteps: three to six concrete actions, most important first.
Do not mention the mechanics of the debate (cycles, moderators, tools); write for the user.`;

function deliberationChunks(deliberation: CouncilDeliberation): readonly unknown[] {
  if (deliberation.kind === 'conclusions') {
    const blocks = deliberation.conclusions.map(c =>
      dataBlock('conclusion', c.conclusion, { persona: c.persona, confidence: c.confidence }),
    );
    return [<TextChunk>{"The personas' conclusions:\n\n" + blocks.join('')}</TextChunk>];
  }
  const note = deliberation.limitReached
    ? 'The debate stopped at its cycle limit without full agreement.'
    : 'The debate ended because the council converged.';
  return [
    <TextChunk>{`${note} The debate record (oldest first; older cycles may be condensed):\n\n`}</TextChunk>,
    ...debateRecordChunks(deliberation.cycles),
  ];
}

/** The council's consolidated answer; reply: FinalSynthesis. */
export class SynthesisPrompt extends PromptElement<SynthesisPromptProps> {
  render() {
    return (
      <>
        <UserMessage priority={1_000}>{`${ROLE}\n\n${RULES}\n\n${DATA_NOTICE}`}</UserMessage>
        <UserMessage priority={900} flexGrow={2}>
          <TextChunk priority={400}>{'The council members:\n\n' + councilBlock(this.props.personas)}</TextChunk>
          {clarifiedRequestChunks(this.props)}
        </UserMessage>
        <UserMessage priority={500} flexGrow={1} flexReserve="/3">{deliberationChunks(this.props.deliberation)}</UserMessage>
        <UserMessage priority={1_000}>Write the council's consolidated answer now.</UserMessage>
      </>
    );
  }
}
