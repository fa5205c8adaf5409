import type { ToolDefinition } from '../../llm/languageModel';
import type { AgentType } from '../schemas/agentType';
import type { PromptContributor } from './promptContributor';

/** The contributor's name: the request for an explorer's report, which offers no tools, leaves its text out. */
export const TOOL_GUIDANCE = 'tool-guidance';

/** The agents that explore the workspace with the read-only tools before they report. */
const EXPLORING_AGENTS: readonly AgentType[] = ['discovery-agent', 'ticket-agent'];

/** Only what the tools' own descriptions and the agent's instructions do not say already: each request pays for it. */
const HOW_TO_USE = [
  '- Search or list first; then read only the lines you need, and stop once you can answer.',
  '- Cite workspace-relative paths and line numbers; never guess what a file holds, say what is missing.',
];

/**
 * Tells agents that explore the code which read-only tools exist and how to use them well. It names them only: each
 * request that offers a tool sends its description with it, and the same words again here would be billed twice.
 * `tools` is read at prompt time, so tools registered later are included.
 */
export function toolGuidanceContributor(tools: () => readonly Pick<ToolDefinition, 'name'>[]): PromptContributor {
  return {
    name: TOOL_GUIDANCE,
    appliesTo: EXPLORING_AGENTS,
    priority: 900,
    async contribute() {
      const available = tools();
      if (available.length === 0) return undefined;
      return [`Read-only tools you can call: ${available.map(tool => tool.name).join(', ')}.`, ...HOW_TO_USE].join(
        '\n',
      );
    },
  };
}
