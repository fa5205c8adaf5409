import type { AgentAssignment } from '../schemas/delegation';
import { STAGE_CONCURRENCY } from './pipelineOptions';
import { runStageAgent, type AgentSpec } from './stageAgent';
import { runCollector, type CollectorResultBase, type CollectorSpec } from './stageCollector';
import type { StageEnvironment } from './stageEnvironment';
import type { StageFrame } from './stageFrame';
import { mapBounded } from '../../llm/boundedParallel';
import type { AgentRun, RerunInput } from './previousAttempt';
import type { ReconstructedContext } from '../contextManager/routing';
import { REPETITION_BOUNDS } from '../../workflow/engine/repetitionBounds';

/** What a stage's run leaves for its record: the agents' latest results, the last consolidation, how it went. */
export interface StageRun<R, Result> {
  readonly agentResults: R[];
  readonly result: Result;
  readonly rounds: number;
  readonly agentsSpawned: number;
}

/**
 * One stage as the pipeline runs it: where it sits in the run, what its agents and its collector do, and the record
 * it keeps. Rounds, reruns, ids and handoffs are the same for every stage.
 */
export interface StageDescriptor<
  R,
  AgentDraft,
  CollectorDraft,
  C,
  Result extends CollectorResultBase,
  Rec,
> extends StageFrame {
  agent(assignment: AgentAssignment): AgentSpec<R, AgentDraft>;
  readonly collector: CollectorSpec<R, CollectorDraft, C, Result>;
  /** The stage's record (`stageRecords.ts`) of its run. */
  record(run: StageRun<R, Result>): Rec;
}

/**
 * Runs a stage after its orchestrator delegated: the agents in parallel (bounded), then the collector; while the
 * collector asks for a rerun, reruns just those agents with their previous attempt and the collector's feedback, at
 * most `REPETITION_BOUNDS.reruns` times (so at most that many + 1 collector rounds). Returns what the stage's record
 * keeps: the agents' latest results and the last consolidation. The stage modules call it with their descriptor (its types inferred from its parts).
 */
export async function runStage<R, AgentDraft, CollectorDraft, C, Result extends CollectorResultBase, Rec>(
  env: StageEnvironment,
  descriptor: StageDescriptor<R, AgentDraft, CollectorDraft, C, Result, Rec>,
): Promise<Rec> {
  const { stage, delegation } = descriptor;
  const { assignments } = delegation;
  env.onProgress({ kind: 'delegated', stage, agentIds: assignments.map(a => a.agentId) });
  type Item = { readonly assignment: AgentAssignment; readonly rerun?: RerunInput<R> };
  const runOne = ({ assignment, rerun }: Item, guidance?: ReconstructedContext) =>
    runStageAgent(env, descriptor, descriptor.agent(assignment), assignment, rerun, guidance);
  let pending: readonly Item[] = assignments.map(assignment => ({ assignment }));
  let runs: AgentRun<R>[] = [];
  let agentsSpawned = 0;
  let collected: Result | undefined;
  let round = 0;
  for (;;) {
    // A round of agents (the first with the context the context manager routed to this stage, if any), then the
    // history is read once for a loop among them or an agent's own request (once per collector round): that agent
    // runs once more with the context manager's reconstructed context (or the run stops with its question).
    const routed = round === 0 ? env.guidance : undefined;
    const ran = await mapBounded(pending, STAGE_CONCURRENCY, env.token, item => runOne(item, routed));
    const asking = (runs: readonly AgentRun<R>[]) =>
      runs.flatMap(run => (run.contextRequest ? [{ agentId: run.agentId, request: run.contextRequest }] : []));
    let route = await env.agents.recoverAmong(
      stage,
      new Set(pending.map(item => item.assignment.agentId)),
      asking(ran),
    );
    // A re-run that asks again goes back to recoverAmong, whose bound ends it. Routed to the collector, the context
    // is the collector's for this round.
    let collectorGuidance: ReconstructedContext | undefined;
    while (route) {
      if (route.agentId === descriptor.collectorType) {
        collectorGuidance = route.guidance;
        break;
      }
      const index = pending.findIndex(item => item.assignment.agentId === route?.agentId);
      const stuck = pending[index];
      if (!stuck) break;
      const again = await runOne(stuck, route.guidance);
      ran[index] = again;
      route = await env.agents.recoverAmong(stage, new Set([again.agentId]), asking([again]));
    }
    agentsSpawned += ran.length;
    runs = round === 0 ? ran : runs.map(run => ran.find(r => r.agentId === run.agentId) ?? run);
    round += 1;
    collected = await runCollector(env, descriptor, descriptor.collector, runs, round, collected, collectorGuidance);
    const { decision } = collected;
    env.onProgress({ kind: 'collector-decided', stage, decision });
    // PROCEED (spec 001): the context manager routes the consolidated result on; the pass ends here either way.
    if (decision.kind === 'proceed') await env.agents.proceed(stage, descriptor.collectorType, decision.rationale);
    if (decision.kind !== 'rerun') break;
    // The one place the reruns' bound holds (REPETITION_BOUNDS.reruns), whoever the collector names each round.
    if (round > REPETITION_BOUNDS.reruns) {
      env.onProgress({
        kind: 'limit-reached',
        stage,
        message: `The ${stage} collector asked for another rerun after ${REPETITION_BOUNDS.reruns} (the most one pass of a stage takes); continuing with the results so far.`,
      });
      break;
    }
    // The agents it names (its schema admits only this stage's), or all of them when it names none.
    const named = new Set(decision.agentIds);
    pending = assignments.flatMap((assignment, index) => {
      const previous = runs[index];
      return (named.size === 0 || named.has(assignment.agentId)) && previous
        ? [{ assignment, rerun: { previous, feedback: decision.rationale } }]
        : [];
    });
  }
  return descriptor.record({
    agentResults: runs.map(run => run.result),
    result: collected,
    rounds: round,
    agentsSpawned,
  });
}
