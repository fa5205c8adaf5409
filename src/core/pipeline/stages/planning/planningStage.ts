import type { DiscoveryCollectorContext } from '../../schemas/curation';
import type { PlanningAgentResult } from '../../schemas/planning';
import type { StageEnvironment } from '../stageEnvironment';
import { roundsRecord, runStageRounds } from '../stageRounds';
import { runPlanningAgent } from './planningAgent';
import { collectPlanning, type PlanningCollected } from './planningCollector';
import { delegatePlanning } from './planningOrchestrator';
import type { PlanningStageRecord } from './planningStageRecord';

/** Handoff depth of planning agents: below the discovery collector's handoff. */
const AGENT_DEPTH = 2;

/** Runs planning on the curated discovery context; `discoveryHandoffId` is the parent of its handoffs. */
export async function runPlanningStage(
  env: StageEnvironment,
  discovery: DiscoveryCollectorContext,
  discoveryHandoffId: string,
  routeBackFeedback?: string,
): Promise<PlanningStageRecord> {
  const delegation = delegatePlanning(env, discovery);
  const rounds = await runStageRounds<PlanningAgentResult, PlanningCollected>(env, {
    stage: 'planning',
    agentType: 'planning-agent',
    delegation,
    runAgent: (assignment, rerun) =>
      runPlanningAgent(
        env,
        delegation,
        discovery,
        assignment,
        { depth: AGENT_DEPTH, parentHandoffId: discoveryHandoffId },
        routeBackFeedback,
        rerun,
      ),
    collect: (runs, round, previous) =>
      collectPlanning(
        env,
        delegation,
        discovery,
        runs,
        round,
        { depth: AGENT_DEPTH + 1, parentHandoffId: runs[0]?.handoffId ?? discoveryHandoffId },
        previous,
      ),
  });
  return { stage: 'planning', delegation, ...roundsRecord(rounds) };
}
