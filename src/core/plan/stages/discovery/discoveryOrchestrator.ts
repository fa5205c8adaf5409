import type { AgentAssignment } from '../../schemas/delegation';
import { delegationTemplate } from '../delegationTemplate';
import type { StageEnvironment } from '../stageEnvironment';
import { splitIntoAreas } from './workspaceAreas';

/** Files named to each agent as a starting point. */
const SAMPLE_FILES = 25;

/**
 * The discovery orchestrator: the delegation, and the files it names to each agent (by agent id) as the list its
 * prompt shows. Deterministic: the file tree is known without asking a model, and splitting it
 * by folder saves one model round-trip on the critical path of every run.
 */
export function delegateDiscovery(env: StageEnvironment) {
  const areas = splitIntoAreas(
    env.index.visible.map(file => file.path),
    env.options.maxAgentsPerStage,
  );
  const sampleFiles = new Map<string, readonly string[]>();
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
      : areas.map((area, index) => {
          const agentId = `discovery-${index + 1}`;
          const sample = area.files.slice(0, SAMPLE_FILES);
          sampleFiles.set(agentId, sample);
          return {
            agentId,
            agentType: 'discovery-agent',
            assignedGoal: `Map ${area.names.join(', ')} as it bears on the goal.`,
            subdomainFocus: area.names.join(', '),
            contextToPass: {
              fileCount: String(area.files.length),
              sampleFiles: sample.join(', ') + (area.files.length > SAMPLE_FILES ? ', …' : ''),
            },
          };
        });
  const template = delegationTemplate(env, 'discovery-orchestrator', {
    upstreamContextId: env.rootContextId,
    delegationRationale: `Split ${env.index.visible.length} files by folder into ${assignments.length} areas of similar size, one discovery agent each.`,
    assignments,
    splitting: 'deterministic-by-folder',
  });
  return { template, sampleFiles };
}
