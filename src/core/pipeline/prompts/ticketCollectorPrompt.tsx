import { PromptElement, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { Contribution } from '../contributors/promptContributor';
import type { TicketAgentResult } from '../schemas/tickets';
import { AgentPrompt } from './agentPrompt';
import { commonSections, type CommonPromptInputs } from './commonSections';
import { decisionInstructions } from './decisionInstructions';

/** Props of {@link TicketCollectorPrompt}. */
export interface TicketCollectorPromptProps extends BasePromptElementProps, CommonPromptInputs {
  readonly results: readonly { readonly agentId: string; readonly result: TicketAgentResult }[];
  readonly contributions: readonly Contribution[];
}

/** The ticket collector: check the proposals against each other and judge how complete the work is. */
export class TicketCollectorPrompt extends PromptElement<TicketCollectorPromptProps> {
  override render() {
    const { results, contributions } = this.props;
    const instructions = [
      'You are the ticket collector of a pipeline (discovery -> planning -> tickets).',
      "Review the ticket agents' proposals together: list each as an input (inputContextId = its resultId), find proposals that conflict",
      '(e.g. two tickets changing the same lines differently) and say how to resolve them, judge completion (complete / partial / blocked) and list follow-ups.',
      ...decisionInstructions(
        'tickets',
        results.map(r => r.agentId),
      ),
    ];
    const sections = [
      ...commonSections(this.props),
      ...results.map(({ agentId, result }, index) => ({
        title: `Proposal of ${agentId} for ${result.ticketId} (resultId ${result.resultId})`,
        body: JSON.stringify(result),
        source: `ticket-result-${agentId}`,
        priority: 1500 - index,
      })),
    ];
    return <AgentPrompt instructions={instructions} sections={sections} contributions={contributions} />;
  }
}
