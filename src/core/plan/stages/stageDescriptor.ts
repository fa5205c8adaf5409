import type { AgentAssignment } from '../schemas/delegation';
import { runStageAgent, type AgentSpec } from './stageAgent';
import { runCollector, type CollectedResult, type CollectorResultBase, type CollectorSpec } from './stageCollector';
import type { StageEnvironment } from './stageEnvironment';
import type { StageFrame } from './stageFrame';
import { mapBounded } from '../../llm/boundedParallel';
import type { RerunInput } from './previousAttempt';

/**
 * One stage as the pipeline runs it: where it sits in the run and what its agents and its collector do. Rounds,
 * reruns, ids, handoffs and records are the same for every stage.
 */
export interface StageDescriptor<
  R,
  AgentDraft,
  CollectorDraft,
  C,
  Result extends CollectorResultBase,
> extends StageFrame {
  /** The agent for one assignment of the delegation. */
  agent(assignment: AgentAssignment): AgentSpec<R, AgentDraft>;
  readonly collector: CollectorSpec<R, CollectorDraft, C, Result>;
}

/**
 * Runs a stage after its orchestrator delegated: the agents in parallel (bounded), then the collector; while the
 * collector asks for a rerun (and rounds remain), reruns just those agents with their previous attempt and the
 * collector's feedback. Returns what the stage's record keeps: the agents' latest results and the last consolidation.
 */
export async function runStage<R, AgentDraft, CollectorDraft, C, Result extends CollectorResultBase>(
  env: StageEnvironment,
  descriptor: StageDescriptor<R, AgentDraft, CollectorDraft, C, Result>,
) {
  const { stage, agentType, delegation } = descriptor;
  const { assignments } = delegation;
  env.onProgress({
    kind: 'delegated',
    stage,
    agentIds: assignments.map(a => a.agentId),
    rationale: delegation.delegationRationale,
  });
  const runAll = (items: readonly { assignment: AgentAssignment; rerun?: RerunInput<R> }[]) =>
    mapBounded(items, env.options.concurrency, env.token, async ({ assignment, rerun }) => {
      const { agentId } = assignment;
      env.onProgress({ kind: 'agent-started', stage, agentId, agentType, attempt: (rerun?.previous.attempt ?? 0) + 1 });
      let ok = false;
      try {
        const run = await runStageAgent(env, descriptor, descriptor.agent(assignment), assignment, rerun);
        ok = true;
        return run;
      } finally {
        env.onProgress({ kind: 'agent-finished', stage, agentId, agentType, ok });
      }
    });

  let runs = await runAll(assignments.map(assignment => ({ assignment })));
  let agentsSpawned = runs.length;
  let collected: CollectedResult<Result> | undefined;
  let round = 0;
  for (;;) {
    round += 1;
    collected = await runCollector(env, descriptor, descriptor.collector, runs, round, collected);
    const { decision } = collected;
    env.onProgress({ kind: 'collector-decided', stage, decision });
    if (decision.kind !== 'rerun') break;
    if (round > env.options.maxRerunRounds) {
      env.onProgress({
        kind: 'limit-reached',
        stage,
        message: `The ${stage} collector asked for another rerun after ${env.options.maxRerunRounds}; continuing with the results so far.`,
      });
      break;
    }
    const known = new Set(assignments.map(a => a.agentId));
    const named = decision.agentIds.filter(id => known.has(id));
    const chosen = new Set(named.length > 0 ? named : known);
    const again = assignments.flatMap((assignment, index) => {
      const previous = runs[index];
      return chosen.has(assignment.agentId) && previous
        ? [{ assignment, rerun: { previous, feedback: decision.rationale } }]
        : [];
    });
    const rerun = await runAll(again);
    agentsSpawned += rerun.length;
    runs = runs.map(run => rerun.find(r => r.agentId === run.agentId) ?? run);
  }
  return {
    agentResults: runs.map(run => run.result),
    result: collected.result,
    handoffId: collected.handoffId,
    rounds: round,
    agentsSpawned,
  };
}
