import type { ReconstructedContext } from '../contextManager/routing';
import type { AgentPromptSection } from './agentPrompt';

/** What a rerun agent is shown about its previous attempt (from its PreviousContext). */
export interface PreviousAttemptView {
  readonly attemptNumber: number;
  readonly serializedOutput: string;
  readonly error?: string;
}

/** Inputs every pipeline prompt may carry besides its own data. */
export interface CommonPromptInputs {
  readonly goal: string;
  readonly constraints: readonly string[];
  readonly previous?: PreviousAttemptView;
  /** Context rebuilt by the context manager after a degenerate loop. */
  readonly guidance?: ReconstructedContext;
  /** Why a later stage sent the run back here. */
  readonly routeBackFeedback?: string;
  /** Read-only exploration transcript (workspace tool calls and results). */
  readonly exploration?: string;
}

/** Sections for the goal, a previous attempt, reconstructed context, route-back feedback and exploration. */
export function commonSections(inputs: CommonPromptInputs): AgentPromptSection[] {
  const sections: AgentPromptSection[] = [
    {
      title: 'Goal',
      body: [
        inputs.goal,
        ...(inputs.constraints.length > 0 ? ['Constraints:', ...inputs.constraints.map(c => `- ${c}`)] : []),
      ].join('\n'),
      source: 'user-goal',
      priority: 1900,
    },
  ];
  if (inputs.routeBackFeedback !== undefined) {
    sections.push({
      title: 'A later stage sent the work back here because',
      body: inputs.routeBackFeedback,
      source: 'route-back',
      priority: 1800,
    });
  }
  if (inputs.previous !== undefined) {
    const { previous } = inputs;
    sections.push({
      title: `Your previous attempt (#${previous.attemptNumber}) — improve on it, do not repeat it`,
      body: [
        ...(previous.error ? [`What was wrong: ${previous.error}`] : []),
        'Output:',
        previous.serializedOutput,
      ].join('\n'),
      source: 'previous-attempt',
      priority: 1200,
    });
  }
  if (inputs.guidance !== undefined) {
    const { guidance } = inputs;
    sections.push({
      title: 'Reconstructed context (from the context manager; you were repeating yourself)',
      body: [
        `Goal now: ${guidance.goal}`,
        `What is known: ${guidance.summary}`,
        `Do differently: ${guidance.instructions}`,
      ].join('\n'),
      source: 'context-manager',
      priority: 1700,
    });
  }
  if (inputs.exploration !== undefined && inputs.exploration.trim() !== '') {
    sections.push({
      title: 'What you found with the read-only tools',
      body: inputs.exploration,
      source: 'exploration',
      priority: 1000,
    });
  }
  return sections;
}
