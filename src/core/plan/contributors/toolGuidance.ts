import type { ToolDefinition } from '../../llm/languageModel';
import type { AgentType } from '../schemas/agentType';
import type { PromptContributor } from './promptContributor';

/** The contributor's name: the request for an explorer's report, which offers no tools, leaves its text out. */
export const TOOL_GUIDANCE = 'tool-guidance';

/** The agents that explore the workspace with the read-only tools before they report. */
const EXPLORING_AGENTS: readonly AgentType[] = ['discovery-agent', 'ticket-agent'];

const HOW_TO_USE = [
  'Using them well:',
  '- Search or list first, then read only the files and line ranges you need.',
  '- Prefer one precise query over many broad ones; stop once you can answer.',
  '- Cite what you rely on as workspace-relative path and line numbers.',
  '- Never guess file contents: if a tool cannot tell you, say what is missing.',
  '- The tools cannot change files; put proposed changes in your structured answer.',
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
