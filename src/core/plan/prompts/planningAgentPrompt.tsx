import { PromptElement } from '@vscode/prompt-tsx';
import type { AgentAssignment } from '../schemas/delegation';
import { AgentPrompt, type PipelinePromptProps } from './agentPrompt';

interface PlanningAgentPromptProps extends PipelinePromptProps {
  readonly assignment: AgentAssignment;
  /** The upstream discovery context as JSON (the curated context; the bench also renders full results here). */
  readonly discovery: string;
  /** Prefix for this agent's ticket ids, so agents working in parallel never collide. */
  readonly ticketPrefix: string;
}

/** A planning agent: turn its share of the recommendations into tickets with tasks, criteria and dependencies. */
export class PlanningAgentPrompt extends PromptElement<PlanningAgentPromptProps> {
  override render() {
    const { assignment, discovery, ticketPrefix } = this.props;
    const instructions = [
      `You are planning agent ${assignment.agentId} in a pipeline (discovery -> planning -> tickets).`,
      `Your assignment: ${assignment.assignedGoal}`,
      `Propose tickets with ids "${ticketPrefix}1", "${ticketPrefix}2", …: each with concrete tasks (files involved), verifiable acceptance criteria,`,
      'a priority 1-5, links to the discovery findings behind it, and dependencies (ids of tickets that must be done first). Dependencies must not form a cycle.',
    ];
    const sections = [
      {
        title: 'Your share of the work',
        body:
          Object.entries(assignment.contextToPass)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n') || assignment.assignedGoal,
        source: 'assignment',
        priority: 1600,
      },
      { title: 'What discovery found', body: discovery, source: 'discovery-context', priority: 1400 },
    ];
    return <AgentPrompt {...this.props} instructions={instructions} sections={sections} />;
  }
}
