import type { AgentAssignment, DelegationTemplate } from '../../schemas/delegation';
import { delegationTemplate } from '../delegationTemplate';
import type { StageEnvironment } from '../stageEnvironment';
import { splitIntoAreas } from './workspaceAreas';

/** Files named to each agent as a starting point. */
const SAMPLE_FILES = 25;

/**
 * The discovery orchestrator. Deterministic: the file tree is known without asking a model, and splitting it
 * by folder saves one model round-trip on the critical path of every run.
 */
export function delegateDiscovery(env: StageEnvironment): DelegationTemplate {
  const areas = splitIntoAreas(
    env.index.visible.map(file => file.path),
    env.options.maxAgentsPerStage,
  );
  const assignments: AgentAssignment[] =
    areas.length === 0
      ? [
          {
            agentId: 'discovery-1',
            agentType: 'discovery-agent',
            assignedGoal: 'Map the workspace as it bears on the goal.',
            contextToPass: {},
          },
        ]
      : areas.map((area, index) => ({
          agentId: `discovery-${index + 1}`,
          agentType: 'discovery-agent',
          assignedGoal: `Map ${area.names.join(', ')} as it bears on the goal.`,
          subdomainFocus: area.names.join(', '),
          contextToPass: {
            fileCount: String(area.files.length),
            sampleFiles: area.files.slice(0, SAMPLE_FILES).join(', ') + (area.files.length > SAMPLE_FILES ? ', …' : ''),
          },
        }));
  return delegationTemplate(env, 'discovery-orchestrator', {
    upstreamContextId: env.rootContextId,
    rationale: `Split ${env.index.visible.length} files by folder into ${assignments.length} areas of similar size, one discovery agent each.`,
    assignments,
    splitting: 'deterministic-by-folder',
  });
}
