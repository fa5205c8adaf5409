import type { AgentAssignment } from '../schemas/delegation';
import { runStageAgent, type AgentSpec } from './stageAgent';
import { runCollector, type CollectedResult, type CollectorResultBase, type CollectorSpec } from './stageCollector';
import type { StageEnvironment } from './stageEnvironment';
import type { StageFrame } from './stageFrame';
import { runStageRounds } from './stageRounds';

/**
 * One stage as the pipeline runs it: where it sits in the run, what its agents and its collector do, and where its
 * handoffs hang in the chain. Rounds, reruns, ids, handoffs and records are the same for every stage.
 */
export interface StageDescriptor<
  R,
  AgentDraft,
  CollectorDraft,
  C,
  Result extends CollectorResultBase,
> extends StageFrame {
  /** Handoff depth of the stage's agents; the collector hands off one below them. */
  readonly agentDepth: number;
  /** The handoff the stage's agents hang from (the collector before's); none for the first stage. */
  readonly parentHandoffId?: string;
  /** The agent for one assignment of the delegation. */
  agent(assignment: AgentAssignment): AgentSpec<R, AgentDraft>;
  readonly collector: CollectorSpec<R, CollectorDraft, C, Result>;
}

/**
 * Runs a stage after its orchestrator delegated: the agents in parallel, then the collector rounds. Returns what the
 * stage's record keeps: the agents' latest results and the last consolidation.
 */
export async function runStage<R, AgentDraft, CollectorDraft, C, Result extends CollectorResultBase>(
  env: StageEnvironment,
  descriptor: StageDescriptor<R, AgentDraft, CollectorDraft, C, Result>,
) {
  const { agentDepth, parentHandoffId } = descriptor;
  const rounds = await runStageRounds<R, CollectedResult<Result>>(env, {
    stage: descriptor.stage,
    agentType: descriptor.agentType,
    delegation: descriptor.delegation,
    runAgent: (assignment, rerun) =>
      runStageAgent(
        env,
        descriptor,
        descriptor.agent(assignment),
        assignment,
        { depth: agentDepth, ...(parentHandoffId === undefined ? {} : { parentHandoffId }) },
        rerun,
      ),
    collect: (runs, round, previous) => {
      // The collector's handoff hangs from the first agent's.
      const parent = runs[0]?.handoffId ?? parentHandoffId;
      return runCollector(
        env,
        descriptor,
        descriptor.collector,
        runs,
        round,
        { depth: agentDepth + 1, ...(parent === undefined ? {} : { parentHandoffId: parent }) },
        previous,
      );
    },
  });
  return {
    agentResults: rounds.runs.map(run => run.result),
    result: rounds.collected.result,
    handoffId: rounds.collected.handoffId,
    rounds: rounds.rounds,
    agentsSpawned: rounds.agentsSpawned,
  };
}
