import { PromptElement, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { Contribution } from '../contributors/promptContributor';
import type { AgentAssignment } from '../schemas/delegation';
import { AgentPrompt } from './agentPrompt';
import { commonSections, type CommonPromptInputs } from './commonSections';

/** Props of {@link DiscoveryAgentPrompt}. */
export interface DiscoveryAgentPromptProps extends BasePromptElementProps, CommonPromptInputs {
  readonly assignment: AgentAssignment;
  readonly contributions: readonly Contribution[];
  /** True for the final request, after exploring. */
  readonly reporting: boolean;
}

/** A discovery agent: explore one part of the codebase with read-only tools, then report on it. */
export class DiscoveryAgentPrompt extends PromptElement<DiscoveryAgentPromptProps> {
  override render() {
    const { assignment, reporting, contributions } = this.props;
    const instructions = [
      `You are discovery agent ${assignment.agentId} in a pipeline (discovery -> planning -> tickets) that prepares code changes for the goal below.`,
      `Your assignment: ${assignment.assignedGoal}`,
      reporting
        ? 'Now write your discovery report: an architecture overview of your area, file references with exact line ranges and snippets you actually read, at least 5 semantic tags, at least 3 retrieval queries, cross-links, key patterns and integration points. Cite only files that exist.'
        : 'Explore your area with the read-only tools (list_files, search_text, read_file_range). Read only what matters for the goal; stop calling tools when you know enough.',
    ];
    const sections = [
      ...commonSections(this.props),
      {
        title: 'Your area',
        body: [
          `Focus: ${assignment.subdomainFocus ?? assignment.assignedGoal}`,
          ...Object.entries(assignment.contextToPass).map(([k, v]) => `${k}: ${v}`),
        ].join('\n'),
        source: 'assignment',
        priority: 1600,
      },
    ];
    return <AgentPrompt instructions={instructions} sections={sections} contributions={contributions} />;
  }
}
