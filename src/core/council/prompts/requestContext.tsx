import { TextChunk } from '@vscode/prompt-tsx';
import { attachedChunks } from '../../session/attachedBlock';
import { dataBlock, escapeData } from '../../llm/prompting/dataBlock';
import { FittedText } from '../../llm/prompting/fittedText';
import type { AnsweredQuestion, AssumptionNote, ClarifiedRequest, PersonaBrief } from './promptData';

/** Answered clarifying questions as a data block. */
function clarificationsBlock(answers: readonly AnsweredQuestion[]): string {
  return dataBlock('clarifications', answers.map(a => `Q: ${a.question}\nA: ${a.answer}`).join('\n\n'));
}

/** Assumptions made for skipped questions as a data block. */
function assumptionsBlock(assumptions: readonly AssumptionNote[]): string {
  const line = (a: AssumptionNote): string =>
    `- ${a.assumption}${a.rationale ? ` (why: ${a.rationale})` : ''}${a.question ? ` [stands in for the skipped question: ${a.question}]` : ''}`;
  return dataBlock('assumptions', assumptions.map(line).join('\n'));
}

/**
 * The council's members as a data block (persona files can come from the workspace); `withExpertise: false` lists
 * names and roles only, for a prompt that needs to know who is who, not what each could be asked.
 */
export function councilBlock(personas: readonly PersonaBrief[], withExpertise = true): string {
  const line = (p: PersonaBrief): string =>
    `- ${p.name}: ${p.role}${withExpertise ? ` Expertise: ${p.expertise.join(', ')}.` : ''}`;
  return dataBlock('council_members', personas.map(line).join('\n'));
}

/**
 * The request, clarifications and assumptions for a UserMessage (give that message `flexGrow`, so
 * it is sized before any debate record). Answers and assumptions are whole chunks; the request is
 * never dropped — if it alone exceeds what is left of the budget, it is cut at a word boundary, with a note.
 * Attached context follows the request and is pruned first. No answers or no assumptions: no block (an empty
 * block in every request of a session said nothing and was paid for each time).
 */
export function clarifiedRequestChunks(context: ClarifiedRequest): readonly unknown[] {
  return [
    <FittedText
      priority={300}
      flexGrow={1}
      before={'The user asked the council:\n\n<user_request>\n'}
      text={escapeData(context.request.trim())}
      after={'\n</user_request>\n\n'}
      truncationNote="[The request was cut here to fit the model's context window.]"
    />,
    ...attachedChunks(context.attached),
    ...(context.answers.length > 0
      ? [
          <TextChunk priority={200}>
            {'Answers the user gave to clarifying questions:\n\n' + clarificationsBlock(context.answers)}
          </TextChunk>,
        ]
      : []),
    ...(context.assumptions.length > 0
      ? [
          <TextChunk priority={100}>
            {'Assumptions the council made for questions the user skipped (treat them as agreed unless the user said otherwise):\n\n' +
              assumptionsBlock(context.assumptions)}
          </TextChunk>,
        ]
      : []),
  ];
}
