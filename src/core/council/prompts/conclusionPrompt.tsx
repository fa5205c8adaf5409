import { PromptElement, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import { DATA_NOTICE } from '../../llm/prompting/dataBlock';
import { personaIntroduction } from './personaVoice';
import type { ClarifiedRequest, PersonaVoice } from './promptData';
import { precedentMessage } from './precedentMessage';
import { clarifiedRequestChunks } from './requestContext';

/** Props of {@link ConclusionPrompt}. */
export interface ConclusionPromptProps extends BasePromptElementProps, ClarifiedRequest {
  readonly persona: PersonaVoice;
}

const TASK = `There is no debate this time: answer the request directly from your expertise.
- Lead with your recommendation, then the reasoning, trade-offs and caveats that matter.
- Be concrete: name technologies, numbers and steps rather than general advice.
- Build on the clarifications and assumptions; state any further assumption you make.
- Rate your confidence honestly: low when the answer depends on information you do not have.`;

/** A persona's direct answer when there is no debate; reply: PersonaConclusion. */
export class ConclusionPrompt extends PromptElement<ConclusionPromptProps> {
  render() {
    return (
      <>
        <UserMessage priority={1_000}>{`${personaIntroduction(this.props.persona)}\n\n${DATA_NOTICE}`}</UserMessage>
        <UserMessage priority={900} flexGrow={2}>
          {clarifiedRequestChunks(this.props)}
        </UserMessage>
        {precedentMessage(this.props.precedent)}
        <UserMessage priority={1_000}>{TASK}</UserMessage>
      </>
    );
  }
}
