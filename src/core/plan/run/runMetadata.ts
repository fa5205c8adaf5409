import type { PipelineRunState, StagePasses } from './runState';

/** What a run did, for the run report and the chat summary (what it spent is the ledger's). */
export interface RunMetadata {
  readonly runId: string;
  readonly goal: string;
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly phases: readonly StagePasses[];
  readonly completedStages: readonly string[];
  readonly skippedStages: readonly string[];
  /** Agent runs in each completed stage's last pass, reruns included (orchestrators and collectors not counted). */
  readonly agentsSpawned: number;
  readonly modelRequests: number;
  readonly routeBacks: number;
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
  const records = Object.values(state.stages);
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
    agentsSpawned: records.reduce((total, record) => total + record.agentsSpawned, 0),
    modelRequests: state.phases.reduce((total, phase) => total + phase.modelRequests, 0),
    routeBacks: state.routeBacks,
    deliverables: {
      recommendations: state.stages.discovery?.result.recommendations.length ?? 0,
      tickets: state.stages.planning?.result.finalizedTickets.length ?? 0,
      ticketProposals: proposals.length,
      proposedChanges: changes.length,
      filesTouched: [...new Set(changes.map(change => change.path))].sort(),
    },
  };
}
