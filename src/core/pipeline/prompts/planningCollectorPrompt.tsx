import { PromptElement, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { Contribution } from '../contributors/promptContributor';
import type { PlanningAgentResult } from '../schemas/planning';
import { AgentPrompt } from './agentPrompt';
import { commonSections, type CommonPromptInputs } from './commonSections';
import { decisionInstructions } from './decisionInstructions';

/** Props of {@link PlanningCollectorPrompt}. */
export interface PlanningCollectorPromptProps extends BasePromptElementProps, CommonPromptInputs {
  readonly results: readonly { readonly agentId: string; readonly result: PlanningAgentResult }[];
  /** Curated discovery context as JSON. */
  readonly discovery: string;
  readonly contributions: readonly Contribution[];
}

/** The planning collector: merge the agents' tickets into one final, acyclic ticket set. */
export class PlanningCollectorPrompt extends PromptElement<PlanningCollectorPromptProps> {
  override render() {
    const { results, discovery, contributions } = this.props;
    const instructions = [
      'You are the planning collector of a pipeline (discovery -> planning -> tickets).',
      "Merge the planning agents' tickets into the final tickets: drop duplicates, keep ticket ids stable, and give the dependency graph as edges",
      '(fromTicketId must be done before toTicketId). The graph MUST be acyclic; every ticket in a dependency must be a final ticket.',
      'List each planning result as an input (inputContextId = its resultId) and record conflicts and how you resolved them.',
      ...decisionInstructions(
        'planning',
        results.map(r => r.agentId),
      ),
    ];
    const sections = [
      ...commonSections(this.props),
      ...results.map(({ agentId, result }, index) => ({
        title: `Tickets of ${agentId} (resultId ${result.resultId})`,
        body: JSON.stringify(result.tickets),
        source: `planning-result-${agentId}`,
        priority: 1500 - index,
      })),
      { title: 'What discovery found', body: discovery, source: 'discovery-context', priority: 1100 },
    ];
    return <AgentPrompt instructions={instructions} sections={sections} contributions={contributions} />;
  }
}
