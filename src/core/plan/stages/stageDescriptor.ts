import type { AgentAssignment } from '../schemas/delegation';
import { runStageAgent, type AgentSpec } from './stageAgent';
import { runCollector, type CollectedResult, type CollectorResultBase, type CollectorSpec } from './stageCollector';
import type { StageEnvironment } from './stageEnvironment';
import type { StageFrame } from './stageFrame';
import { mapBounded } from '../../llm/boundedParallel';
import type { RerunInput } from './previousAttempt';
import type { ReconstructedContext } from '../contextManager/routing';

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
 * collector asks for a rerun, reruns just those agents with their previous attempt and the collector's feedback.
 * One bound ends the reruns: the loop threshold. An agent repeating its request more than `loopThreshold` times is a
 * degenerate loop, found once per collector round; once the context manager has recovered it, the collector's next
 * decision is the stage's last. Returns what the stage's record keeps: the agents' latest results and the last
 * consolidation.
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
  type Item = { readonly assignment: AgentAssignment; readonly rerun?: RerunInput<R> };
  const runOne = async ({ assignment, rerun }: Item, guidance?: ReconstructedContext) => {
    const { agentId } = assignment;
    env.onProgress({ kind: 'agent-started', stage, agentId, agentType, attempt: (rerun?.previous.attempt ?? 0) + 1 });
    let ok = false;
    try {
      const run = await runStageAgent(env, descriptor, descriptor.agent(assignment), assignment, rerun, guidance);
      ok = true;
      return run;
    } finally {
      env.onProgress({ kind: 'agent-finished', stage, agentId, agentType, ok });
    }
  };
  // The agent whose loop the context manager recovered in this stage, if any.
  let recovered: string | undefined;
  // A round of agents, then the history is read once for a loop among them (once per collector round): a looping
  // agent runs once more with the context manager's reconstructed context (or the run stops with its question).
  const runAll = async (items: readonly Item[]) => {
    const runs = await mapBounded(items, env.options.concurrency, env.token, item => runOne(item));
    const route = await env.agents.loopAmong(stage, new Set(items.map(item => item.assignment.agentId)));
    const index = items.findIndex(item => item.assignment.agentId === route?.agentId);
    const looping = items[index];
    if (!route || !looping) return runs;
    recovered = route.agentId;
    const again = await runOne(looping, route.guidance);
    return runs.map((run, at) => (at === index ? again : run));
  };

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
    if (recovered !== undefined) {
      env.onProgress({
        kind: 'limit-reached',
        stage,
        message: `The ${stage} collector asked for another rerun after ${recovered} looped (the same request more than ${env.options.loopThreshold} times) and was re-run with the context manager's context; continuing with the results so far.`,
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
    rounds: round,
    agentsSpawned,
  };
}
