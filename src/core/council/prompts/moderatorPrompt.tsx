import { PromptElement, TextChunk, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import { DATA_NOTICE } from '../../llm/prompting/dataBlock';
import { debateRecordChunks } from './debateRecord';
import type { ClarifiedRequest, DebateCycleRecord, PersonaBrief } from './promptData';
import { clarifiedRequestChunks, councilBlock } from './requestContext';

/** Props of {@link ModeratorPrompt}. */
export interface ModeratorPromptProps extends BasePromptElementProps, ClarifiedRequest {
  readonly personas: readonly PersonaBrief[];
  /** Every cycle so far, oldest first; the last one is the cycle to judge (not yet moderated). */
  readonly cycles: readonly DebateCycleRecord[];
  /** The session's cycle limit, so the moderator knows how much debate is left. */
  readonly maxCycles?: number;
}

const ROLE = `You moderate a debate between expert personas about a user's request. You do not take sides or add your own recommendation: you record where the debate stands after the latest cycle.`;

const RULES = `What to report:
- resolutionSummary: two to four sentences on what this cycle settled, who moved and why, and what is still contested.
- converged: true when the positions agree on a recommendation, or the remaining differences would not change what the user should do, so another cycle would add little. Differences in emphasis are not disagreements.
- openDisagreements: the disagreements that still matter to the user, one sentence each, naming who disagrees about what. Empty when converged.
Judge from the contributions only; do not invent positions nobody took.`;

/** The moderator's reading of the latest cycle; reply: CycleVerdict. */
export class ModeratorPrompt extends PromptElement<ModeratorPromptProps> {
  render() {
    const { personas, cycles, maxCycles } = this.props;
    const current = cycles[cycles.length - 1]?.cycle ?? 1;
    const limit = maxCycles === undefined ? '' : ` of at most ${maxCycles}`;
    return (
      <>
        <UserMessage priority={1_000}>{`${ROLE}\n\n${RULES}\n\n${DATA_NOTICE}`}</UserMessage>
        <UserMessage priority={900} flexGrow={2}>
          <TextChunk priority={400}>{'The council members:\n\n' + councilBlock(personas)}</TextChunk>
          {clarifiedRequestChunks(this.props)}
        </UserMessage>
        <UserMessage priority={500} flexGrow={1} flexReserve="/3">
          {'The debate record (oldest first; older cycles may be condensed):\n\n'}
          {debateRecordChunks(cycles)}
        </UserMessage>
        <UserMessage
          priority={1_000}
        >{`Cycle ${current}${limit} has just finished. Report where the debate stands after it.`}</UserMessage>
      </>
    );
  }
}
