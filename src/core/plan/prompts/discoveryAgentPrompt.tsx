import { PromptElement } from '@vscode/prompt-tsx';
import type { AgentAssignment } from '../schemas/delegation';
import { AgentPrompt, type PipelinePromptProps } from './agentPrompt';

interface DiscoveryAgentPromptProps extends PipelinePromptProps {
  readonly assignment: AgentAssignment;
  /** True for the final request, after exploring. */
  readonly reporting: boolean;
}

/** A discovery agent: explore one part of the codebase with read-only tools, then report on it. */
export class DiscoveryAgentPrompt extends PromptElement<DiscoveryAgentPromptProps> {
  override render() {
    const { assignment, reporting } = this.props;
    const instructions = [
      `You are discovery agent ${assignment.agentId} in a pipeline (discovery -> planning -> tickets) that prepares code changes for the goal below.`,
      `Your assignment: ${assignment.assignedGoal}`,
      reporting
        ? 'Now write your discovery report: an architecture overview of your area, file references with exact line ranges and snippets you actually read, at least 5 semantic tags, at least 3 retrieval queries, cross-links, key patterns and integration points. Cite only files that exist.'
        : 'Explore your area with the read-only tools (list_files, search_text, read_file_range). Read only what matters for the goal; stop calling tools when you know enough.',
    ];
    const area = {
      title: 'Your area',
      body: [
        `Focus: ${assignment.subdomainFocus ?? assignment.assignedGoal}`,
        ...Object.entries(assignment.contextToPass).map(([k, v]) => `${k}: ${v}`),
      ].join('\n'),
      source: 'assignment',
      priority: 1600,
    };
    return <AgentPrompt {...this.props} instructions={instructions} sections={[area]} />;
  }
}
