import type { ReconstructedContext } from '../contextManager/routing';

/** One titled data section of an agent prompt; the whole section survives or is pruned as one (by `priority`). */
export interface AgentPromptSection {
  readonly title: string;
  readonly body: string;
  /** Where the data came from: names the untrusted-data fence the body is shown in. */
  readonly source: string;
  /** prompt-tsx priority: lower is pruned first under a tight budget. */
  readonly priority: number;
}

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
  /** Context rebuilt by the context manager (a loop, the agent's own request, or a collector's `proceed`). */
  readonly guidance?: ReconstructedContext;
  /** The phase's feedback: the user's (typed with a checkpoint choice), a later stage's route-back, or a gap check's gaps. */
  readonly feedback?: string;
  /** Read-only exploration transcript (workspace tool calls and results). */
  readonly exploration?: string;
}

/** Sections for the goal, the phase's feedback, a previous attempt, reconstructed context and exploration (those given). */
export function commonSections(inputs: CommonPromptInputs): AgentPromptSection[] {
  const { goal, constraints, feedback, previous, guidance, exploration } = inputs;
  const sections: (AgentPromptSection | false)[] = [
    {
      title: 'Goal',
      body: [goal, ...(constraints.length > 0 ? ['Constraints:', ...constraints.map(c => `- ${c}`)] : [])].join('\n'),
      source: 'user-goal',
      priority: 1900,
    },
    feedback !== undefined && {
      title: 'Feedback to address (from the user, a later stage or a gap check)',
      body: feedback,
      source: 'feedback',
      priority: 1800,
    },
    previous !== undefined && {
      title: `Your previous attempt (#${previous.attemptNumber}) — improve on it, do not repeat it`,
      body: [
        ...(previous.error ? [`What was wrong: ${previous.error}`] : []),
        'Output:',
        previous.serializedOutput,
      ].join('\n'),
      source: 'previous-attempt',
      priority: 1200,
    },
    guidance !== undefined && {
      title: "Reconstructed context (the context manager's, from the run's history)",
      body: [
        `Goal now: ${guidance.goal}`,
        `What is known: ${guidance.summary}`,
        `Do differently: ${guidance.instructions}`,
      ].join('\n'),
      source: 'context-manager',
      priority: 1700,
    },
    exploration !== undefined &&
      exploration.trim() !== '' && {
        title: 'What you found with the read-only tools',
        body: exploration,
        source: 'exploration',
        priority: 1000,
      },
  ];
  return sections.filter(section => section !== false);
}
