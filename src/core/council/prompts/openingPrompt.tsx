import { PromptElement, TextChunk, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { PersonaContract } from '../../personas/contract';
import type { AttachedItem } from '../../session/attachedItem';
import { attachedChunks } from '../../session/attachedBlock';
import { CLARIFY_RULES, clarificationRoundNote } from './clarifyPrompt';
import { DATA_NOTICE } from '../../llm/prompting/dataBlock';
import {
  fencedRequestChunks,
  personaCatalog,
  SELECTION_IDS_RULE,
  SELECTION_ROLE,
  selectionSteps,
} from '../../personas/selectionPrompt';

/** Props of {@link OpeningPrompt}. */
export interface OpeningPromptProps extends BasePromptElementProps {
  /** The user's request, as typed. */
  readonly request: string;
  /** The personas the model may choose from. */
  readonly personas: readonly PersonaContract[];
  readonly minPersonas: number;
  readonly maxPersonas: number;
  /** Clarification rounds the session allows (this is round 1). */
  readonly maxRounds: number;
  /** What the user attached (already bounded); pruned before the request and the catalog. */
  readonly attached?: readonly AttachedItem[];
}

/**
 * Opens a session in one request (reply: the open_session schema): choose the council exactly as
 * SelectPersonasPrompt asks, then propose round 1's clarifying questions by ClarifyPrompt's rules for the
 * personas just chosen. Built from those prompts' parts; the request and attachments are fenced data,
 * and the request is never dropped (cut with a note when it does not fit).
 */
export class OpeningPrompt extends PromptElement<OpeningPromptProps> {
  override render() {
    const { request, personas, minPersonas, maxPersonas, maxRounds, attached } = this.props;
    const instructions = [
      `${SELECTION_ROLE} You open its session in one reply: first you choose the council, then you ask the user what those personas need to know.`,
      `Choosing the council:\n${selectionSteps(minPersonas, maxPersonas).join('')}\n${SELECTION_IDS_RULE}`,
      'Clarifying for the council you chose: before it debates, find what is ambiguous in the request and would change the advice of the personas you chose, and propose clarifying questions for the user. In the rules below, the council members are the personas you chose.',
      CLARIFY_RULES,
      DATA_NOTICE,
    ].join('\n\n');
    return (
      <>
        <UserMessage priority={1_000}>{instructions}</UserMessage>
        <UserMessage priority={900} flexGrow={2}>
          <TextChunk priority={90}>{personaCatalog(personas).join('')}</TextChunk>
          {fencedRequestChunks(request, undefined, 70)}
        </UserMessage>
        {attached && attached.length > 0 ? (
          <UserMessage priority={800} flexGrow={1}>
            {attachedChunks(attached)}
          </UserMessage>
        ) : undefined}
        <UserMessage priority={1_000}>
          {`${clarificationRoundNote(1, maxRounds)} Choose the council first, then propose the clarifying questions those personas would need answered, or say that no clarification is needed.`}
        </UserMessage>
      </>
    );
  }
}
