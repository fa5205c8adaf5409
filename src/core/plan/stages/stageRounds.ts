import type { AgentType, PipelineStage } from '../schemas/agentType';
import type { CollectorDecision } from '../schemas/consolidation';
import type { AgentAssignment, DelegationTemplate } from '../schemas/delegation';
import { mapBounded } from '../../llm/boundedParallel';
import type { AgentRun, RerunInput } from './previousAttempt';
import type { StageEnvironment } from './stageEnvironment';

/** A collector's output as the round loop needs it. */
export interface Collected {
  readonly decision: CollectorDecision;
}

/** The three roles of a stage after its orchestrator delegated. */
export interface StageWork<R, C extends Collected> {
  readonly stage: PipelineStage;
  readonly agentType: AgentType;
  readonly delegation: DelegationTemplate;
  runAgent(assignment: AgentAssignment, rerun?: RerunInput<R>): Promise<AgentRun<R>>;
  /** `round` is 1 for the first consolidation; `previous` is the last consolidation on a rerun round. */
  collect(runs: readonly AgentRun<R>[], round: number, previous?: C): Promise<C>;
}

/** A stage's outcome: the last consolidation (advance or route_back) and every agent's latest run. */
export interface StageRounds<R, C> {
  readonly collected: C;
  readonly runs: readonly AgentRun<R>[];
  readonly rounds: number;
  /** Agent invocations started (first attempts and reruns). */
  readonly agentsSpawned: number;
}

/**
 * Runs the delegated agents in parallel (bounded), then the collector; while the collector asks for a rerun
 * (and rounds remain), reruns just those agents with their previous attempt and the collector's feedback.
 */
export async function runStageRounds<R, C extends Collected>(
  env: StageEnvironment,
  work: StageWork<R, C>,
): Promise<StageRounds<R, C>> {
  const { assignments } = work.delegation;
  env.onProgress({
    kind: 'delegated',
    stage: work.stage,
    agentIds: assignments.map(a => a.agentId),
    rationale: work.delegation.delegationRationale,
  });
  const runAll = (items: readonly { assignment: AgentAssignment; rerun?: RerunInput<R> }[]) =>
    mapBounded(items, env.options.concurrency, env.token, async item => {
      env.onProgress({
        kind: 'agent-started',
        stage: work.stage,
        agentId: item.assignment.agentId,
        agentType: work.agentType,
        attempt: (item.rerun?.previous.attempt ?? 0) + 1,
      });
      try {
        const run = await work.runAgent(item.assignment, item.rerun);
        env.onProgress({
          kind: 'agent-finished',
          stage: work.stage,
          agentId: item.assignment.agentId,
          agentType: work.agentType,
          ok: true,
        });
        return run;
      } catch (error) {
        env.onProgress({
          kind: 'agent-finished',
          stage: work.stage,
          agentId: item.assignment.agentId,
          agentType: work.agentType,
          ok: false,
        });
        throw error;
      }
    });

  let runs = await runAll(assignments.map(assignment => ({ assignment })));
  let agentsSpawned = runs.length;
  let collected: C | undefined;
  for (let round = 1; ; round++) {
    collected = await work.collect(runs, round, collected);
    const { decision } = collected;
    env.onProgress({ kind: 'collector-decided', stage: work.stage, decision });
    if (decision.kind !== 'rerun') return { collected, runs, rounds: round, agentsSpawned };
    if (round > env.options.maxRerunRounds) {
      env.onProgress({
        kind: 'limit-reached',
        stage: work.stage,
        message: `The ${work.stage} collector asked for another rerun after ${env.options.maxRerunRounds}; continuing with the results so far.`,
      });
      return { collected, runs, rounds: round, agentsSpawned };
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
}
