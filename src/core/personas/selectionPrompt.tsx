import { PromptElement, TextChunk, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import { REQUEST_CLASSIFICATIONS, type PersonaContract } from './contract';
import { DATA_NOTICE, dataBlock, escapeData } from '../llm/prompting/dataBlock';
import type { AttachedItem } from '../session/attachedItem';
import { attachedChunks } from '../session/attachedBlock';
import { FittedText } from '../llm/prompting/fittedText';

/** Props of {@link SelectPersonasPrompt}. */
export interface SelectPersonasPromptProps extends BasePromptElementProps {
  /** The user's request, as typed. */
  readonly request: string;
  /** The personas the model may choose from. */
  readonly personas: readonly PersonaContract[];
  readonly minPersonas: number;
  readonly maxPersonas: number;
  /** The gist of what the user attached (already bounded for selection); pruned before the request. */
  readonly attached?: readonly AttachedItem[];
}

/** The selector's role: what the council is for. */
export const SELECTION_ROLE =
  "You convene a council of expert personas that will debate the user's request and then agree on one answer.";

/**
 * The numbered steps of choosing a council (classify, choose by id, give a reason); shared with the opening
 * prompt. Kept as the pieces this prompt always rendered: prompt-tsx estimates each piece's tokens on its
 * own, and the request's share of a tight budget is what is left after that estimate.
 */
export function selectionSteps(minPersonas: number, maxPersonas: number): readonly string[] {
  return [
    '1. Classify the request as exactly one of: ',
    REQUEST_CLASSIFICATIONS.join(', '),
    '. Use "general" only when no other fits.',
    '\n',
    '2. Choose ',
    String(minPersonas),
    ' to ',
    String(maxPersonas),
    ' personas, by id, from the catalog below. Prefer personas whose "relevant to" includes the classification, ' +
      'pick complementary viewpoints rather than overlapping ones, and include a divergent persona (one who widens and ' +
      'challenges the options) when the request involves a decision with real trade-offs. Choose more personas only when ' +
      'the request genuinely spans several areas; every extra persona makes the debate longer.',
    '\n',
    '3. Give a one- or two-sentence reason the user will see: why these personas for this request.',
    '\n',
    '4. If the request is a decision (a choice between alternatives, or a question with a few natural answers), name ' +
      'its options in decisionOptions: 2 to 4 short, mutually exclusive choices. Each persona will back one of them ' +
      'independently; when all back the same one, the council answers without a debate.',
  ];
}

/** The closing rule of the selection steps. */
export const SELECTION_IDS_RULE = 'Use only ids from the catalog.';

/** A persona file's text on one line: a role that breaks lines cannot start a heading of its own. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** One catalog line: everything the model needs to judge fit, without the (long) instructions. */
function catalogLine(persona: PersonaContract): string {
  return (
    `- id: ${persona.id} | ${oneLine(persona.name)} (${persona.cognitiveMode}) | role: ${oneLine(persona.role)} | ` +
    `expertise: ${persona.expertise.map(oneLine).join('; ')} | relevant to: ${persona.relevantTo.join(', ')}`
  );
}

/**
 * The persona catalog the ids are chosen from, as pieces (see selectionSteps). Workspace persona files are
 * untrusted text like the request: the catalog is fenced as data, so a role reading "## Selection rules
 * (updated)…" is a description, not an instruction.
 */
export function personaCatalog(personas: readonly PersonaContract[]): readonly string[] {
  return ['\n', '## Persona catalog', '\n', dataBlock('persona_catalog', personas.map(catalogLine).join('\n'))];
}

/**
 * The request fenced as data (never dropped: cut with a note when it does not fit), then the attached
 * context at `attachedPriority` (pruned first). Shared with the opening prompt.
 */
export function fencedRequestChunks(
  request: string,
  attached: readonly AttachedItem[] | undefined,
  attachedPriority: number,
): readonly unknown[] {
  return [
    <FittedText
      priority={80}
      flexGrow={1}
      before={'\n\nThe user asked the council:\n\n<user_request>\n'}
      text={escapeData(request.trim())}
      after={'\n</user_request>\n'}
      truncationNote="[The request was cut here to fit the model's context window.]"
    />,
    ...(attached && attached.length > 0 ? [<TextChunk priority={attachedPriority}>{'\n'}</TextChunk>] : []),
    ...attachedChunks(attached, attachedPriority),
  ];
}

/**
 * Asks the model to classify a request and choose the council panel for it.
 * The request is fenced as data like in every other prompt, and is the only part allowed to shrink:
 * without the catalog the ids cannot be chosen.
 */
export class SelectPersonasPrompt extends PromptElement<SelectPersonasPromptProps> {
  override render() {
    const { request, personas, minPersonas, maxPersonas, attached } = this.props;
    return (
      <UserMessage>
        <TextChunk priority={100}>
          {[
            SELECTION_ROLE,
            '\n',
            ...selectionSteps(minPersonas, maxPersonas),
            '\n',
            SELECTION_IDS_RULE,
            '\n\n',
            DATA_NOTICE,
          ]}
        </TextChunk>
        <TextChunk priority={90}>{personaCatalog(personas)}</TextChunk>
        {fencedRequestChunks(request, attached, 70)}
      </UserMessage>
    );
  }
}
