import { PromptElement, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import { DATA_NOTICE } from '../../llm/prompting/dataBlock';
import { OWN_LABEL, OWN_VOTE } from './replies';
import { OTHER_OPTION, type DecisionOption } from '../../session/decisionOptions';
import { debateRecordChunks } from './debateRecord';
import { personaIntroduction } from './personaVoice';
import type { ClarifiedRequest, DebateCycleRecord, PersonaVoice } from './promptData';
import { precedentMessage } from './precedentMessage';
import { clarifiedRequestChunks } from './requestContext';

/** Props of {@link DebateTurnPrompt}. */
export interface DebateTurnPromptProps extends BasePromptElementProps, ClarifiedRequest {
  /** Whose turn it is. */
  readonly persona: PersonaVoice;
  /** 1-based number of the cycle being drafted. */
  readonly cycle: number;
  /** Every finished cycle before this one, oldest first (empty in cycle 1). */
  readonly previousCycles: readonly DebateCycleRecord[];
  /**
   * Send only what the persona has not read in full before: the latest cycle's arguments of its colleagues;
   * older cycles and its own arguments as one-line positions (the economy protocol).
   */
  readonly condensed?: boolean;
  /** How the speaker's own contributions are named in `previousCycles` (anonymized records: OWN_LABEL). */
  readonly ownName?: string;
  /** The decision's options, when the opening named them. */
  readonly options?: readonly DecisionOption[];
}

/** The decision's options and what `option` asks for. */
function optionsText(options: readonly DecisionOption[] | undefined): string {
  if (!options || options.length === 0) return '';
  const listed = options.map(o => `Option ${o.label}: ${o.option}`).join('\n');
  return `\n\nThe decision's options:\n${listed}\nSet option to the number of the one your position backs, or "${OTHER_OPTION}" when none is.`;
}

const RULES = `Rules for your contribution:
- Stay in your role and expertise; say so when something is outside it.
- Be concrete: name technologies, numbers, steps and trade-offs rather than general advice.
- Build on the clarifications and assumptions; if you need another assumption, state it.
- Keep the argument focused: a few strong points beat many weak ones.`;

function task(cycle: number): string {
  if (cycle <= 1) {
    return `This is debate cycle 1. Draft your own answer independently: you have not seen your colleagues' views, and should not guess them.`;
  }
  const previous = cycle - 1;
  return `This is debate cycle ${cycle}. Respond to the positions from cycle ${previous} shown in the debate record (older cycles may be condensed). Your colleagues appear as Position A, Position B… without their names, so that arguments decide, not who made them; your own contributions are marked ${OWN_LABEL}.
- Engage the positions by label: say where and why you agree, and challenge the points you think are wrong.
- Hold your position with stronger reasons, refine it, or change it if you were persuaded. If you change it, set changedPosition to true and say in changeReason what persuaded you.
- Do not repeat your earlier arguments; add something new or concede the point.
- List in agreesWith the labels of the positions you now agree with.
- vote: the one position you back as the council's answer, "${OWN_VOTE}" or a label; confidence: how sure you are of it.`;
}

/**
 * A later cycle of the economy protocol: the record above is where the council stands (not every earlier draft),
 * so the task says what to answer and folds in the rules the persona applied in cycle 1, briefly. What each field
 * holds (changedPosition and changeReason, agreesWith, vote) is said once, in the reply schema's descriptions.
 */
function condensedTask(cycle: number): string {
  return `This is debate cycle ${cycle}. Colleagues appear as Position A, Position B… without names, so that arguments decide; yours is marked ${OWN_LABEL}.
- Answer the points shown (the positions apart from yours) by label: concede what they show, challenge what is wrong; add something new, not your earlier arguments.
- Hold, refine or change your position; fill in the reply's fields as their descriptions ask.
- Stay in your role; be concrete (technologies, numbers, trade-offs); a few strong points.`;
}

/** One persona's turn in a debate cycle; reply: PersonaContribution. */
export class DebateTurnPrompt extends PromptElement<DebateTurnPromptProps> {
  render() {
    const { persona, cycle, previousCycles } = this.props;
    const shownCycles = cycle <= 1 ? [] : previousCycles;
    const condensed = this.props.condensed === true && cycle > 1;
    const rules = condensed ? '' : `\n\n${RULES}`;
    return (
      <>
        <UserMessage
          priority={1_000}
        >{`${personaIntroduction(persona, condensed)}${rules}\n\n${DATA_NOTICE}`}</UserMessage>
        <UserMessage priority={900} flexGrow={2}>
          {clarifiedRequestChunks(this.props)}
        </UserMessage>
        {precedentMessage(cycle <= 1 ? this.props.precedent : this.props.precedentList)}
        {shownCycles.length > 0 ? (
          <UserMessage priority={500} flexGrow={1} flexReserve="/3">
            {condensed ? 'Where the council stands:\n\n' : 'The debate record so far (oldest first):\n\n'}
            {debateRecordChunks(shownCycles, this.props.ownName ?? persona.name, condensed)}
          </UserMessage>
        ) : undefined}
        <UserMessage
          priority={1_000}
        >{`${condensed ? condensedTask(cycle) : task(cycle)}${optionsText(this.props.options)}`}</UserMessage>
      </>
    );
  }
}
