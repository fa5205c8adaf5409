import type { PhaseRecord, PipelineRunState } from './runState';

/** What a run did and cost, for the run report and the chat summary. */
export interface RunMetadata {
  readonly runId: string;
  readonly goal: string;
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly phases: readonly PhaseRecord[];
  readonly completedStages: readonly string[];
  readonly skippedStages: readonly string[];
  readonly agentsSpawned: number;
  readonly modelCalls: number;
  readonly promptTokens: number;
  /** Sum of phase durations, in milliseconds. */
  readonly stageDurationMs: number;
  readonly deliverables: {
    readonly recommendations: number;
    readonly tickets: number;
    readonly ticketProposals: number;
    readonly proposedChanges: number;
    readonly filesTouched: readonly string[];
  };
}

/** Derives the run metadata from a state (pure). */
export function runMetadataOf(state: PipelineRunState): RunMetadata {
  const sum = (pick: (phase: PhaseRecord) => number) => state.phases.reduce((total, phase) => total + pick(phase), 0);
  const proposals = state.stages.tickets?.agentResults ?? [];
  const changes = proposals.flatMap(result => result.proposedChanges);
  return {
    runId: state.runId,
    goal: state.goal,
    startedAt: state.startedAt,
    updatedAt: state.updatedAt,
    phases: state.phases,
    completedStages: Object.keys(state.stages),
    skippedStages: state.skipped,
    agentsSpawned: sum(phase => phase.agentsSpawned),
    modelCalls: sum(phase => phase.modelCalls),
    promptTokens: sum(phase => phase.promptTokens),
    stageDurationMs: sum(phase => phase.durationMs),
    deliverables: {
      recommendations: state.stages.discovery?.result.recommendations.length ?? 0,
      tickets: state.stages.planning?.result.finalizedTickets.length ?? 0,
      ticketProposals: proposals.length,
      proposedChanges: changes.length,
      filesTouched: [...new Set(changes.map(change => change.path))].sort(),
    },
  };
}
