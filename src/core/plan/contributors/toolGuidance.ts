import type { ToolDefinition } from '../../llm/languageModel';
import type { AgentType } from '../schemas/agentType';
import type { PromptContributor } from './promptContributor';

/** The contributor's name: the request for an explorer's report, which offers no tools, leaves its text out. */
export const TOOL_GUIDANCE = 'tool-guidance';

/** The agents that explore the workspace with the read-only tools before they report. */
const EXPLORING_AGENTS: readonly AgentType[] = ['discovery-agent', 'ticket-agent'];

/**
 * Only what the tools' own descriptions and the agent's instructions do not say already: each exploring request pays
 * for it. The instructions name the tools and say to stop once the agent knows enough; the request carries each tool.
 */
const HOW_TO_USE =
  'Search or list before you read, then read only the lines you need. Cite workspace-relative paths and line numbers; never guess what a file holds, say what is missing.';

/**
 * Tells agents that explore the code how to use the read-only tools well. It does not name them: each request that
 * offers a tool sends its name and description with it, and the instructions name them too. With no tool at prompt
 * time (`tools` is read then) it says nothing.
 */
export function toolGuidanceContributor(tools: () => readonly Pick<ToolDefinition, 'name'>[]): PromptContributor {
  return {
    name: TOOL_GUIDANCE,
    appliesTo: EXPLORING_AGENTS,
    priority: 900,
    async contribute() {
      return tools().length === 0 ? undefined : HOW_TO_USE;
    },
  };
}
