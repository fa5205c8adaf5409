import type { DiscoveryCollectorContext } from '../../schemas/curation';
import type { AgentAssignment, DelegationTemplate } from '../../schemas/delegation';
import type { Recommendation } from '../../schemas/discoveryFindings';
import { delegationTemplate } from '../delegationTemplate';
import type { StageEnvironment } from '../stageEnvironment';

const PRIORITY_ORDER = ['critical', 'high', 'medium', 'low'] as const;

/**
 * The planning orchestrator. Deterministic: the discovery collector already turned findings into prioritised
 * recommendations, so they are dealt round-robin (most urgent first) to at most `maxAgentsPerStage` agents —
 * one model round-trip saved on the critical path.
 */
export function delegatePlanning(env: StageEnvironment, discovery: DiscoveryCollectorContext): DelegationTemplate {
  const recommendations = [...discovery.curation.recommendations].sort(
    (a, b) => PRIORITY_ORDER.indexOf(a.priority) - PRIORITY_ORDER.indexOf(b.priority),
  );
  const count = Math.max(1, Math.min(env.options.maxAgentsPerStage, recommendations.length));
  const shares: Recommendation[][] = Array.from({ length: count }, () => []);
  recommendations.forEach((rec, index) => shares[index % count]?.push(rec));
  const assignments: AgentAssignment[] = shares.map((share, index) => ({
    agentId: `planning-${index + 1}`,
    agentType: 'planning-agent',
    assignedGoal:
      share.length > 0
        ? `Plan tickets for recommendations ${share.map(r => r.recommendationId).join(', ')}.`
        : 'Plan tickets for the goal.',
    ...(share.length > 0 ? { subdomainFocus: share.map(r => r.title).join('; ') } : {}),
    contextToPass: {
      // Each agent's own ticket id prefix, so agents working in parallel never collide.
      ticketPrefix: `P${index + 1}-T`,
      ...Object.fromEntries(share.map(r => [r.recommendationId, `[${r.priority}] ${r.title}: ${r.description}`])),
    },
  }));
  return delegationTemplate(env, 'planning-orchestrator', {
    upstreamContextId: discovery.contextId,
    delegationRationale: `${recommendations.length} recommendations dealt by priority to ${count} planning agent(s).`,
    assignments,
    contextSelections: [
      {
        selectionId: 'discovery-curation',
        sourceContextId: discovery.contextId,
        selectedContent: 'The curated discovery context (code map, recommendations, query findings).',
        selectionRationale: 'Planning needs what discovery found, not the raw reports.',
      },
    ],
    splitting: 'deterministic-by-recommendation',
  });
}
