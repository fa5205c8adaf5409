import { PromptElement } from '@vscode/prompt-tsx';
import type { PlanningTicket } from '../schemas/planning';
import { AgentPrompt, type PipelinePromptProps } from './agentPrompt';

interface TicketAgentPromptProps extends PipelinePromptProps {
  readonly agentId: string;
  readonly ticket: PlanningTicket;
  /** Curated upstream context (discovery and planning) as JSON. */
  readonly upstream: string;
  /** True for the final request, after exploring. */
  readonly reporting: boolean;
}

/** A ticket agent: read what the ticket touches, then propose an implementation plan and file changes (not applied). */
export class TicketAgentPrompt extends PromptElement<TicketAgentPromptProps> {
  override render() {
    const { agentId, ticket, upstream, reporting } = this.props;
    const instructions = [
      `You are ticket agent ${agentId} in a pipeline (discovery -> planning -> tickets); your ticket is ${ticket.ticketId}.`,
      reporting
        ? 'Now give your implementation plan, the proposed changes (create / modify with full content or line ranges / delete) and a test plan. Nothing is applied: the user reviews your proposal first. Modify and delete only files that exist.'
        : 'Read the files the ticket touches with the read-only tools (read_file_range, search_text, list_files); stop calling tools when you know enough.',
    ];
    const sections = [
      { title: `Ticket ${ticket.ticketId}`, body: JSON.stringify(ticket), source: 'ticket', priority: 1650 },
      { title: 'Upstream context (curated)', body: upstream, source: 'upstream-context', priority: 1300 },
    ];
    return <AgentPrompt {...this.props} instructions={instructions} sections={sections} />;
  }
}
