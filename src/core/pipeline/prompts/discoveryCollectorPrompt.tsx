import { PromptElement, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { Contribution } from '../contributors/promptContributor';
import type { DiscoveryReport } from '../schemas/discovery';
import { AgentPrompt } from './agentPrompt';
import { commonSections, type CommonPromptInputs } from './commonSections';
import { decisionInstructions } from './decisionInstructions';

/** Props of {@link DiscoveryCollectorPrompt}. */
export interface DiscoveryCollectorPromptProps extends BasePromptElementProps, CommonPromptInputs {
  /** Reports by the agent that wrote them. */
  readonly reports: readonly { readonly agentId: string; readonly report: DiscoveryReport }[];
  readonly contributions: readonly Contribution[];
}

/** The discovery collector: merge every report into one code map, recommendations and a decision. */
export class DiscoveryCollectorPrompt extends PromptElement<DiscoveryCollectorPromptProps> {
  override render() {
    const { reports, contributions } = this.props;
    const instructions = [
      'You are the discovery collector of a pipeline (discovery -> planning -> tickets).',
      'Consolidate the discovery reports below: list each report as an input (inputContextId = its resultId), merge them into one code map',
      '(modules, deduplicated references, one unified diagram, merged tags), write actionable recommendations for planning (supportingDiscoveryIds =',
      'resultIds of the reports behind each), answer the generated queries, and record conflicts between reports and how you resolved them.',
      ...decisionInstructions(
        'discovery',
        reports.map(r => r.agentId),
      ),
    ];
    const sections = [
      ...commonSections(this.props),
      ...reports.map(({ agentId, report }, index) => ({
        title: `Report of ${agentId} (resultId ${report.resultId})`,
        body: JSON.stringify(report),
        source: `discovery-report-${agentId}`,
        priority: 1500 - index,
      })),
    ];
    return <AgentPrompt instructions={instructions} sections={sections} contributions={contributions} />;
  }
}
