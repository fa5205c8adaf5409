import type { DiscoveryReport } from '../../schemas/discovery';
import type { StageEnvironment } from '../stageEnvironment';
import { roundsRecord, runStageRounds } from '../stageRounds';
import { runDiscoveryAgent } from './discoveryAgent';
import { collectDiscovery, type DiscoveryCollected } from './discoveryCollector';
import { delegateDiscovery } from './discoveryOrchestrator';
import type { DiscoveryStageRecord } from './discoveryStageRecord';

/** Handoff depths of the discovery stage: agents hand off at the root of the chain, the collector one below. */
const AGENT_DEPTH = 0;

/** Runs discovery: deterministic delegation, parallel agents, collector rounds. */
export async function runDiscoveryStage(
  env: StageEnvironment,
  routeBackFeedback?: string,
): Promise<DiscoveryStageRecord> {
  const delegation = delegateDiscovery(env);
  const rounds = await runStageRounds<DiscoveryReport, DiscoveryCollected>(env, {
    stage: 'discovery',
    agentType: 'discovery-agent',
    delegation,
    runAgent: (assignment, rerun) =>
      runDiscoveryAgent(env, delegation, assignment, { depth: AGENT_DEPTH }, routeBackFeedback, rerun),
    collect: (runs, round, previous) =>
      collectDiscovery(
        env,
        delegation,
        runs,
        round,
        { depth: AGENT_DEPTH + 1, ...(runs[0] ? { parentHandoffId: runs[0].handoffId } : {}) },
        previous,
      ),
  });
  // Discovery's agents' results are its reports.
  const { agentResults: reports, ...kept } = roundsRecord(rounds);
  return { stage: 'discovery', delegation, reports, ...kept };
}
