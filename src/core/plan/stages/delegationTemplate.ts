import type { AgentType } from '../schemas/agentType';
import type { DelegationTemplate } from '../schemas/delegation';
import { SCHEMA_VERSION } from '../schemas/version';
import type { StageEnvironment } from './stageEnvironment';

/** What an orchestrator decided: the rest of its delegation template is the same for every stage. */
type Delegation = Pick<DelegationTemplate, 'upstreamContextId' | 'delegationRationale' | 'assignments'> & {
  readonly contextSelections?: DelegationTemplate['contextSelections'];
  /** How the work was split, for the run report (`metadata.splitting`). */
  readonly splitting: string;
};

/** The orchestrator's delegation template (spec 000), with a fresh context id the run now knows. */
export function delegationTemplate(
  env: StageEnvironment,
  orchestrator: AgentType,
  delegation: Delegation,
): DelegationTemplate {
  const resultId = env.contextIds.issue(orchestrator);
  return {
    schemaVersion: SCHEMA_VERSION,
    resultId,
    upstreamContextId: delegation.upstreamContextId,
    goal: env.goal,
    delegationRationale: delegation.delegationRationale,
    assignments: delegation.assignments,
    contextSelections: delegation.contextSelections ?? [],
    metadata: { splitting: delegation.splitting },
  };
}
