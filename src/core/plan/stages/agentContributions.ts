import { assembleContributions } from '../contributors/assembly';
import type { Contribution, PromptContext } from '../contributors/promptContributor';
import type { AgentType } from '../schemas/agentType';
import type { PreviousContext } from '../schemas/previousContext';
import type { StageEnvironment } from './stageEnvironment';

/** Runs the prompt contributors for one agent invocation (workspace facts, episodic memory, tool guidance, …). */
export function contributionsFor(
  env: StageEnvironment,
  agentType: AgentType,
  currentContextId: string,
  previousContext?: PreviousContext,
): Promise<Contribution[]> {
  const ctx: PromptContext = {
    agentType,
    currentContextId,
    ...(previousContext === undefined ? {} : { previousContext }),
    metadata: { goal: env.goal },
  };
  return assembleContributions(env.contributors, ctx, env.token);
}
