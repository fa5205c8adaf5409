import type { PipelineStage } from '../schemas/agentType';
import { PIPELINE_STAGES } from '../schemas/agentType';

/** How a collector chooses its decision; the agent ids are the ones a rerun may name. */
export function decisionInstructions(stage: PipelineStage, agentIds: readonly string[]): string[] {
  const earlier = PIPELINE_STAGES.slice(0, PIPELINE_STAGES.indexOf(stage));
  return [
    'Then decide what happens next:',
    '- "advance" when the results are good enough for the next stage;',
    `- "rerun" with the agentIds to redo (from: ${agentIds.join(', ')}) when some results are missing or wrong — your rationale is sent to them as feedback;`,
    earlier.length > 0
      ? `- "route_back" to an earlier stage (${earlier.join(', ')}) only when its output is missing something this stage cannot work around.`
      : '- "route_back" is not possible from the first stage.',
  ];
}
